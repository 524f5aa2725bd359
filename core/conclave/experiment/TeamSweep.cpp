#include "conclave/experiment/TeamSweep.h"

#include "conclave/diagnostics/Problem.h"
#include "conclave/io/TeamJson.h"
#include "conclave/validate/Validator.h"

#include <algorithm>

namespace conclave {

namespace {

std::vector<std::string> fieldsOf(std::string_view text)
{
    std::vector<std::string> fields;
    size_t start = 0;
    while (true) {
        const auto dot = text.find('.', start);
        fields.emplace_back(text.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start));
        if (dot == std::string_view::npos)
            return fields;
        start = dot + 1;
    }
}

// The longest prefix of `path` that is one of `names`, followed by a dot and more; npos when none is.
size_t longestPrefix(const std::string& path, const std::vector<std::string>& names)
{
    for (auto dot = path.rfind('.'); dot != std::string::npos && dot > 0; dot = path.rfind('.', dot - 1)) {
        const auto prefix = path.substr(0, dot);
        for (const auto& name : names) {
            if (name == prefix)
                return dot;
        }
    }
    return std::string::npos;
}

std::string typeName(const nlohmann::json& value)
{
    if (value.is_array())
        return "an array";
    if (value.is_string())
        return "a string";
    if (value.is_number())
        return "a number";
    if (value.is_boolean())
        return "a boolean";
    return "null";
}

} // namespace

TeamSweep::TeamSweep(const Team& base, std::string label, std::filesystem::path folder)
    : m_doc(teamToJson(base)), m_label(std::move(label)), m_folder(std::move(folder))
{
}

std::optional<NodeId> TeamSweep::nodeOf(const Team& team, const std::string& path)
{
    std::vector<std::string> ids;
    for (const auto& node : team.nodes)
        ids.push_back(node.id.str());
    const auto dot = longestPrefix(path, ids);
    if (dot == std::string::npos)
        return std::nullopt;
    return NodeId(path.substr(0, dot));
}

std::optional<TeamSweep::Target> TeamSweep::resolve(const SweepAxis& axis, std::string& error) const
{
    const std::string where = "--vary '" + axis.flag + "': ";
    const auto& path = axis.path;
    Target target;
    std::string field;
    std::vector<std::string> ids;
    const auto nodes = m_doc.find("nodes");
    if (nodes != m_doc.end() && nodes->is_array()) {
        for (const auto& node : *nodes)
            ids.push_back(node.value("id", std::string()));
    }
    std::vector<std::string> backendNames;
    const auto backends = m_doc.find("backends");
    if (backends != m_doc.end() && backends->is_object()) {
        for (const auto& [name, block] : backends->items())
            backendNames.push_back(name);
    }
    if (std::find(ids.begin(), ids.end(), path) != ids.end()) {
        // A whole node id ("stage.1"), even where a shorter one ("stage") would take the rest as a field.
        error = where + path + " is a node; name one of its fields (" + path + ".FIELD)";
        return std::nullopt;
    }
    if (const auto dot = longestPrefix(path, ids); dot != std::string::npos) {
        const auto index = size_t(std::find(ids.begin(), ids.end(), path.substr(0, dot)) - ids.begin());
        target.ownerPointer = childPointer("/nodes", index);
        field = path.substr(dot + 1);
        const auto first = fieldsOf(field).front();
        if (first == "id" || first == "kind") {
            error = where + "a node's " + first + " cannot be varied; its fields can";
            return std::nullopt;
        }
    } else if (path.starts_with("backends.")) {
        const auto rest = path.substr(9);
        const auto at = longestPrefix(rest, backendNames);
        if (at == std::string::npos) {
            const auto name = rest.substr(0, rest.find('.'));
            const bool known = std::find(backendNames.begin(), backendNames.end(), rest) != backendNames.end();
            error = where + (known ? path + " is a backend; name one of its fields (" + path + ".FIELD)"
                                   : "no backend \"" + name + "\" in " + m_label + " (PATH is backends.NAME.FIELD)");
            return std::nullopt;
        }
        target.ownerPointer = childPointer("/backends", rest.substr(0, at));
        field = rest.substr(at + 1);
    } else if (path.starts_with("defaults.")) {
        target.ownerPointer = "/defaults";
        field = path.substr(9);
    } else {
        error = where + path + " names no node of " + m_label +
                " (PATH is NODE_ID.FIELD, backends.NAME.FIELD or defaults.FIELD)";
        return std::nullopt;
    }
    target.fields = fieldsOf(field);
    target.pointer = target.ownerPointer;
    const nlohmann::json* at = m_doc.contains(nlohmann::json::json_pointer(target.ownerPointer))
                                   ? &m_doc.at(nlohmann::json::json_pointer(target.ownerPointer))
                                   : nullptr;
    std::string walked = path.substr(0, path.size() - field.size() - 1);
    for (size_t i = 0; i < target.fields.size(); ++i) {
        if (at && i > 0 && !at->is_object()) {
            error = where + walked + " is " + typeName(*at) + " in " + m_label + ", not an object with fields";
            return std::nullopt;
        }
        walked += "." + target.fields[i];
        target.pointer = childPointer(target.pointer, target.fields[i]);
        at = at && at->is_object() && at->contains(target.fields[i]) ? &(*at)[target.fields[i]] : nullptr;
    }
    return target;
}

std::optional<std::string> TeamSweep::problemOf(const Team& team, const std::string& variant,
                                                const std::vector<Target>& targets) const
{
    ValidationContext context;
    context.teamFolder = m_folder;
    context.localModels = m_localModels;
    for (const auto& problem : validate(team, context)) {
        if (problem.isError())
            return formatProblem(problem, variant);
        // An unknown key at a swept field, or at an object on its way: the team would not read what is
        // swept. (Other warnings, such as a top_k above the routes, are the user's to weigh, as in a file.)
        if (!problem.message.starts_with("unknown key"))
            continue;
        for (const auto& target : targets) {
            const bool onTheWay =
                problem.pointer == target.pointer || (problem.pointer.size() > target.ownerPointer.size() &&
                                                      target.pointer.starts_with(problem.pointer + "/"));
            if (onTheWay)
                return formatProblem(problem, variant) + "; a sweep varies only fields the team reads";
        }
    }
    return std::nullopt;
}

std::optional<std::vector<TeamVariant>> TeamSweep::variants(const SweepSpec& sweep, const std::string& designName,
                                                            std::string& error) const
{
    std::vector<Target> targets;
    for (const auto& axis : sweep.axes()) {
        auto target = resolve(axis, error);
        if (!target)
            return std::nullopt;
        targets.push_back(std::move(*target));
    }
    std::vector<TeamVariant> out;
    for (auto& parameters : sweep.grid()) {
        auto made = make(targets, std::move(parameters), designName, error);
        if (!made)
            return std::nullopt;
        out.push_back(std::move(*made));
    }
    return out;
}

std::optional<TeamVariant> TeamSweep::variant(const std::vector<SweepAxis>& axes,
                                              std::vector<SweepParameter> parameters, const std::string& designName,
                                              std::string& error) const
{
    std::vector<Target> targets;
    for (const auto& axis : axes) {
        auto target = resolve(axis, error);
        if (!target)
            return std::nullopt;
        targets.push_back(std::move(*target));
    }
    if (targets.size() != parameters.size()) {
        error = "a variant of " + m_label + " needs one value per field";
        return std::nullopt;
    }
    return make(targets, std::move(parameters), designName, error);
}

std::optional<std::string> TeamSweep::problemWith(const SweepAxis& axis) const
{
    std::string error;
    if (resolve(axis, error))
        return std::nullopt;
    return error;
}

std::optional<TeamVariant> TeamSweep::make(const std::vector<Target>& targets, std::vector<SweepParameter> parameters,
                                           const std::string& designName, std::string& error) const
{
    const std::string name = designName + SweepSpec::suffix(parameters);
    const std::string variant = "--vary: variant \"" + name + "\"";
    auto doc = m_doc;
    for (size_t i = 0; i < targets.size(); ++i) {
        nlohmann::json* at = &doc[nlohmann::json::json_pointer(targets[i].ownerPointer)];
        for (const auto& field : targets[i].fields) {
            if (!at->is_object())
                *at = nlohmann::json::object(); // made on the way, as the path asks
            at = &(*at)[field];
        }
        *at = parameters[i].value;
    }
    auto loaded = teamFromJson(doc);
    for (const auto& problem : loaded.problems) {
        if (problem.isError()) {
            error = formatProblem(problem, variant);
            return std::nullopt;
        }
    }
    if (!loaded.team) {
        error = variant + ": does not load";
        return std::nullopt;
    }
    if (auto problem = problemOf(*loaded.team, variant, targets)) {
        error = *problem;
        return std::nullopt;
    }
    return TeamVariant{name, std::move(parameters), std::move(*loaded.team)};
}

} // namespace conclave
