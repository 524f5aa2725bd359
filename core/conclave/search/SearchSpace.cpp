#include "conclave/search/SearchSpace.h"

#include "conclave/diagnostics/Problem.h"
#include "conclave/io/FileIo.h"
#include "conclave/io/TeamFile.h"

#include <cmath>

namespace conclave {

namespace fs = std::filesystem;

namespace {

std::string absoluteOf(const std::string& file)
{
    if (file.empty())
        return {};
    std::error_code ec;
    const auto absolute = fs::absolute(file, ec);
    return ec ? file : absolute.lexically_normal().string();
}

// A parameter's values are ordered when they come from a range or are all numbers.
bool orderedAxis(const SweepAxis& axis)
{
    if (axis.flag.find(',') == std::string::npos && axis.values.size() > 1)
        return true;
    for (const auto& value : axis.values) {
        if (!value.value.is_number())
            return false;
    }
    return true;
}

} // namespace

std::optional<SearchSpace> SearchSpace::fromFlags(const std::vector<std::string>& flags, std::vector<SearchBase> bases,
                                                  std::string& error, const std::set<std::string>& localModels)
{
    if (bases.empty()) {
        error = "a search needs at least one team to start from";
        return std::nullopt;
    }
    SearchSpace space;
    for (const auto& base : bases) {
        const auto folder = base.path.empty() ? fs::path() : fs::path(base.path).parent_path();
        space.m_sweeps.emplace_back(base.team, base.file.empty() ? base.team.name : base.file, folder);
        space.m_sweeps.back().setLocalModels(localModels);
    }
    space.m_bases = std::move(bases);
    for (size_t i = 0; i < flags.size(); ++i) {
        const std::string where = "/parameters/" + std::to_string(i) + ": ";
        auto axis = SweepSpec::parseAxis(flags[i], error);
        if (!axis) {
            error = where + error;
            return std::nullopt;
        }
        for (const auto& other : space.m_parameters) {
            if (other.axis.path == axis->path) {
                error = where + axis->path + " is already a parameter";
                return std::nullopt;
            }
        }
        Parameter parameter;
        parameter.ordered = orderedAxis(*axis);
        std::string firstProblem;
        bool any = false;
        for (size_t b = 0; b < space.m_bases.size(); ++b) {
            const auto problem = space.m_sweeps[b].problemWith(*axis);
            parameter.appliesTo.push_back(!problem);
            any = any || !problem;
            if (problem && firstProblem.empty())
                firstProblem = *problem;
        }
        if (!any) {
            error = where + firstProblem;
            return std::nullopt;
        }
        parameter.axis = std::move(*axis);
        space.m_parameters.push_back(std::move(parameter));
    }
    // Every value of every parameter, the others at the base's own, must make a team that validates.
    for (size_t p = 0; p < space.m_parameters.size(); ++p) {
        for (size_t b = 0; b < space.m_bases.size(); ++b) {
            if (!space.m_parameters[p].appliesTo[b])
                continue;
            for (size_t v = 0; v < space.m_parameters[p].axis.values.size(); ++v) {
                Point point{b, std::vector<int>(space.m_parameters.size(), kBaseValue)};
                point.choice[p] = int(v);
                std::string problem;
                if (!space.variant(point, problem)) {
                    error = "/parameters/" + std::to_string(p) + ": " + problem;
                    return std::nullopt;
                }
            }
        }
    }
    return space;
}

std::optional<SearchSpace> SearchSpace::fromJsonText(std::string_view text, const std::string& label,
                                                     const fs::path& folder, std::vector<SearchBase> bases,
                                                     std::string& error, const std::set<std::string>& localModels)
{
    const auto fail = [&](const std::string& what) {
        error = label + ": " + what;
        return std::nullopt;
    };
    nlohmann::json doc;
    try {
        doc = nlohmann::json::parse(text);
    } catch (const nlohmann::json::parse_error& e) {
        return fail(std::string("not JSON: ") + e.what());
    }
    if (!doc.is_object())
        return fail("/: a space is a JSON object with \"parameters\"");
    for (const auto& [key, value] : doc.items()) {
        if (key != "format" && key != "parameters" && key != "bases")
            return fail("/" + key + ": unknown key (a space has format, parameters and bases)");
    }
    if (doc.contains("format")) {
        if (!doc["format"].is_number_integer() || doc["format"].get<int64_t>() < 1)
            return fail("/format: a positive integer");
        if (doc["format"].get<int64_t>() > kFormat)
            return fail("/format: " + doc["format"].dump() + " is newer than this Conclave reads (" +
                        std::to_string(kFormat) + ")");
    }
    std::vector<std::string> flags;
    if (const auto it = doc.find("parameters"); it != doc.end()) {
        if (!it->is_array())
            return fail("/parameters: an array of --vary flags (\"PATH=v1,v2\" or \"PATH=lo:hi:step\")");
        for (size_t i = 0; i < it->size(); ++i) {
            if (!(*it)[i].is_string())
                return fail("/parameters/" + std::to_string(i) + ": a --vary flag string, not " + (*it)[i].dump());
            flags.push_back((*it)[i].get<std::string>());
        }
    }
    if (const auto it = doc.find("bases"); it != doc.end()) {
        if (!it->is_array())
            return fail("/bases: an array of team files");
        for (size_t i = 0; i < it->size(); ++i) {
            const std::string where = "/bases/" + std::to_string(i) + ": ";
            if (!(*it)[i].is_string())
                return fail(where + "a team file's path, not " + (*it)[i].dump());
            const auto typed = (*it)[i].get<std::string>();
            const auto path = fs::path(typed).is_absolute() ? fs::path(typed) : folder / typed;
            auto loaded = loadTeamFile(path);
            if (!loaded.team) {
                const auto first = loaded.problems.empty() ? std::string("does not load")
                                                           : formatProblem(loaded.problems.front(), path.string());
                return fail(where + first);
            }
            bases.push_back({path.string(), absoluteOf(path.string()), std::move(*loaded.team)});
        }
    }
    if (flags.empty() && bases.size() < 2)
        return fail("/parameters: nothing to search (no parameter, and no alternative base)");
    auto space = fromFlags(flags, std::move(bases), error, localModels);
    if (!space)
        error = label + ": " + error;
    return space;
}

std::optional<SearchSpace> SearchSpace::load(const fs::path& file, std::vector<SearchBase> bases, std::string& error,
                                             const std::set<std::string>& localModels)
{
    const auto read = readFileText(file, size_t(4) << 20);
    if (!read.text) {
        error = file.string() + ": " + read.error;
        return std::nullopt;
    }
    return fromJsonText(*read.text, file.string(), file.parent_path(), std::move(bases), error, localModels);
}

double SearchSpace::size() const
{
    double total = 0;
    for (size_t b = 0; b < m_bases.size(); ++b) {
        double points = 1;
        for (const auto& p : m_parameters) {
            if (p.appliesTo[b])
                points *= double(p.axis.values.size() + 1);
        }
        total += points;
    }
    return total;
}

std::vector<SearchSpace::Point> SearchSpace::grid(size_t limit) const
{
    std::vector<Point> points;
    if (size() > double(limit))
        return points;
    for (size_t b = 0; b < m_bases.size(); ++b) {
        std::vector<size_t> applicable;
        for (size_t p = 0; p < m_parameters.size(); ++p) {
            if (m_parameters[p].appliesTo[b])
                applicable.push_back(p);
        }
        // An odometer over the applicable parameters, the last one turning fastest.
        Point point{b, std::vector<int>(m_parameters.size(), kBaseValue)};
        while (true) {
            points.push_back(point);
            bool carried = true;
            for (size_t k = applicable.size(); k > 0 && carried; --k) {
                const size_t p = applicable[k - 1];
                if (point.choice[p] + 1 < int(m_parameters[p].axis.values.size())) {
                    ++point.choice[p];
                    carried = false;
                } else {
                    point.choice[p] = kBaseValue;
                }
            }
            if (carried)
                break;
        }
    }
    return points;
}

std::string SearchSpace::key(const Point& point)
{
    std::string text = "b" + std::to_string(point.base) + ":";
    for (size_t i = 0; i < point.choice.size(); ++i) {
        if (i > 0)
            text += ',';
        text += point.choice[i] == kBaseValue ? std::string("-") : std::to_string(point.choice[i]);
    }
    return text;
}

std::vector<SweepParameter> SearchSpace::parametersOf(const Point& point) const
{
    std::vector<SweepParameter> out;
    for (size_t p = 0; p < m_parameters.size() && p < point.choice.size(); ++p) {
        if (point.choice[p] == kBaseValue || !m_parameters[p].appliesTo[point.base])
            continue;
        const auto& value = m_parameters[p].axis.values[size_t(point.choice[p])];
        out.push_back({m_parameters[p].axis.path, value.value, value.text});
    }
    return out;
}

std::optional<TeamVariant> SearchSpace::variant(const Point& point, std::string& error) const
{
    if (point.base >= m_bases.size() || point.choice.size() != m_parameters.size()) {
        error = "point " + key(point) + " is not of this space";
        return std::nullopt;
    }
    std::vector<SweepAxis> axes;
    for (size_t p = 0; p < m_parameters.size(); ++p) {
        if (point.choice[p] != kBaseValue && m_parameters[p].appliesTo[point.base])
            axes.push_back(m_parameters[p].axis);
    }
    return m_sweeps[point.base].variant(axes, parametersOf(point), m_bases[point.base].team.name, error);
}

nlohmann::ordered_json SearchSpace::toJson() const
{
    nlohmann::ordered_json doc;
    doc["format"] = kFormat;
    auto parameters = nlohmann::ordered_json::array();
    for (const auto& p : m_parameters)
        parameters.push_back(p.axis.flag);
    doc["parameters"] = std::move(parameters);
    auto bases = nlohmann::ordered_json::array();
    for (const auto& b : m_bases)
        bases.push_back(b.path.empty() ? b.team.name : b.path);
    doc["bases"] = std::move(bases);
    return doc;
}

} // namespace conclave
