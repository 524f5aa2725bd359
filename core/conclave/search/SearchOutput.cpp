#include "conclave/search/SearchOutput.h"

#include "conclave/io/ModelsFile.h"
#include "conclave/io/TeamFile.h"
#include "conclave/io/TeamJson.h"
#include "conclave/util/MoneyText.h"

#include <cctype>
#include <cmath>
#include <cstdio>

namespace conclave {

namespace fs = std::filesystem;

namespace {

std::string slug(const std::string& name)
{
    std::string out;
    for (const char c : name) {
        if (std::isalnum(static_cast<unsigned char>(c)))
            out += char(std::tolower(static_cast<unsigned char>(c)));
        else if (!out.empty() && out.back() != '-')
            out += '-';
        if (out.size() >= 60)
            break;
    }
    while (!out.empty() && out.back() == '-')
        out.pop_back();
    return out.empty() ? "design" : out;
}

std::string relocate(const std::string& file, const fs::path& from, const fs::path& to)
{
    if (fs::path(file).is_absolute())
        return file;
    std::error_code ec;
    const auto absolute = fs::absolute(ModelsFile::resolve(file, from), ec).lexically_normal();
    if (ec)
        return file;
    const auto target = fs::absolute(to, ec).lexically_normal();
    if (ec)
        return absolute.string();
    const auto relative = absolute.lexically_relative(target);
    return relative.empty() ? absolute.string() : relative.string();
}

std::string number(const char* format, double value)
{
    char text[48];
    std::snprintf(text, sizeof text, format, value);
    return text;
}

} // namespace

std::optional<std::string> SearchOutput::prepare(const fs::path& dir, bool force)
{
    std::error_code ec;
    if (fs::exists(dir, ec)) {
        if (!fs::is_directory(dir, ec))
            return dir.string() + ": not a folder";
        if (!fs::is_empty(dir, ec) && !force)
            return dir.string() + ": not empty; give --force to write the front's team files into it anyway";
        return std::nullopt;
    }
    fs::create_directories(dir, ec);
    if (ec)
        return dir.string() + ": cannot be made (" + ec.message() + ")";
    return std::nullopt;
}

std::vector<std::string> SearchOutput::fileNames(const fs::path& dir, const nlohmann::ordered_json& report,
                                                 const std::vector<std::string>& baseFiles,
                                                 const std::vector<std::string>& baseNames)
{
    std::vector<std::string> names;
    size_t index = 0;
    for (const auto& d : report["front"]) {
        ++index;
        const std::string prefix = index < 10 ? "0" + std::to_string(index) : std::to_string(index);
        const size_t base = d.value("base", size_t(0));
        std::string stem = base < baseNames.size() ? baseNames[base] : std::string("design");
        if (base < baseFiles.size() && !baseFiles[base].empty()) {
            stem = fs::path(baseFiles[base]).filename().string();
            if (stem.ends_with(".team.json"))
                stem.resize(stem.size() - 10);
        }
        names.push_back((dir / (prefix + "-" + slug(stem) + "-c" + std::to_string(d["candidate"].get<int>()) +
                                ".team.json"))
                            .string());
    }
    return names;
}

std::string SearchOutput::description(const nlohmann::ordered_json& report, const nlohmann::ordered_json& design)
{
    std::string text = "Found by conclave search " + report.value("id", std::string()) + " (on the simulator)";
    std::string changed;
    for (const auto& [path, value] : design["parameters"].items())
        changed += (changed.empty() ? "" : ", ") + path + "=" + (value.is_string() ? value.get<std::string>() : value.dump());
    text += changed.empty() ? ": the base as drawn." : ": " + changed + ".";
    if (design.contains("test")) {
        const auto& t = design["test"];
        text += " Test, " + std::to_string(report["parts"]["test"].get<int64_t>()) +
                " held-out tasks: accuracy " + number("%.1f %%", 100 * t["accuracy"].get<double>());
        if (t["accuracy_ci"].is_array())
            text += number(" [%.1f, ", 100 * t["accuracy_ci"][0].get<double>()) +
                    number("%.1f]", 100 * t["accuracy_ci"][1].get<double>());
        if (t.contains("delta_accuracy") && t["delta_ci"].is_array() && !report["baselines"].empty())
            text += number(", %+.1f pt", 100 * t["delta_accuracy"].get<double>()) +
                    number(" [%.1f, ", 100 * t["delta_ci"][0].get<double>()) +
                    number("%.1f] against ", 100 * t["delta_ci"][1].get<double>()) +
                    report["baselines"][0]["name"].get<std::string>();
        text += ", " + moneyText(t["cost_usd"].get<double>()) + " per task" +
                number(", p95 %.0f ms.", t["p95_wall_ms"].get<double>());
    }
    text += " Objectives:";
    for (const auto& o : report["objectives"])
        text += " " + o.get<std::string>();
    text += ".";
    return text;
}

Team SearchOutput::relocated(Team team, const fs::path& from, const fs::path& to)
{
    for (auto& [name, backend] : team.backends) {
        if (backend.modelsFile)
            backend.modelsFile = relocate(*backend.modelsFile, from, to);
        if (backend.db)
            backend.db = relocate(*backend.db, from, to);
    }
    for (auto& node : team.nodes) {
        if (node.config.routerFile)
            node.config.routerFile = relocate(*node.config.routerFile, from, to);
        if (node.config.scorer)
            node.config.scorer = relocate(*node.config.scorer, from, to);
    }
    return team;
}

std::optional<std::string> SearchOutput::write(const fs::path& dir, const nlohmann::ordered_json& report,
                                               const std::vector<std::string>& baseFiles)
{
    const auto names = fileNames(dir, report, baseFiles, {});
    size_t index = 0;
    for (const auto& d : report["front"]) {
        const auto& file = names[index++];
        auto loaded = teamFromJson(nlohmann::json::parse(d["team"].dump()));
        if (!loaded.team)
            return file + ": the design's team does not load";
        const size_t base = d.value("base", size_t(0));
        const auto from = base < baseFiles.size() && !baseFiles[base].empty()
                              ? fs::path(baseFiles[base]).parent_path()
                              : fs::path();
        auto team = relocated(std::move(*loaded.team), from, dir);
        team.name = d["name"].get<std::string>();
        team.description = description(report, d);
        if (auto error = saveTeamFile(team, file))
            return file + ": " + *error;
    }
    return std::nullopt;
}

} // namespace conclave
