#include "conclave/experiment/ExperimentSpec.h"

#include "conclave/experiment/TeamInputs.h"
#include "conclave/io/ContentHash.h"
#include "conclave/io/JsonText.h"
#include "conclave/io/TeamJson.h"

#include <filesystem>
#include <map>

namespace conclave {

namespace {

// The selected tasks' ids, in order (none without a task set).
nlohmann::ordered_json selectedIds(const TaskSet* tasks)
{
    auto ids = nlohmann::ordered_json::array();
    if (tasks) {
        for (const auto& task : tasks->tasks())
            ids.push_back(task.id);
    }
    return ids;
}

constexpr int kSpecFormat = 2;

nlohmann::ordered_json designJson(const ExperimentDesign& design)
{
    nlohmann::ordered_json j;
    j["name"] = design.name;
    j["file"] = design.file;
    j["path"] = design.path;
    j["hash"] = design.hash;
    j["team"] = parseOrderedJsonQuietly(design.teamJson);
    if (!design.sweep.empty()) {
        j["sweep"] = nlohmann::ordered_json::array();
        for (const auto& p : design.sweep)
            j["sweep"].push_back({{"path", p.path}, {"value", p.value}, {"text", p.text}});
    }
    return j;
}

std::string absolutePath(const std::string& file)
{
    if (file.empty())
        return {};
    std::error_code ec;
    const auto path = std::filesystem::weakly_canonical(std::filesystem::absolute(file, ec), ec);
    return ec ? file : path.string();
}

std::optional<ExperimentDesign> designFromJson(const nlohmann::json& j, const std::string& where, std::string& error)
{
    if (!j.is_object() || !j.contains("team") || !j.value("name", nlohmann::json()).is_string()) {
        error = where + ": expected a design with a name and a team";
        return std::nullopt;
    }
    auto loaded = teamFromJson(j["team"]);
    if (!loaded.team) {
        error = where + ": the team does not load: " +
                (loaded.problems.empty() ? std::string("unknown error") : loaded.problems.front().message);
        return std::nullopt;
    }
    ExperimentDesign design;
    design.name = j["name"].get<std::string>();
    design.file = j.value("file", std::string());
    design.path = j.value("path", std::string());
    design.teamJson = teamToJsonText(*loaded.team);
    design.team = std::move(*loaded.team);
    // The hash as it was at the start: an input read now may differ.
    if (const auto hash = j.find("hash"); hash != j.end() && hash->is_string())
        design.hash = hash->get<std::string>();
    else
        design.hash = contentHash(design.teamJson);
    if (const auto sweep = j.find("sweep"); sweep != j.end()) {
        if (!sweep->is_array()) {
            error = where + ": expected its swept fields as an array";
            return std::nullopt;
        }
        for (const auto& p : *sweep) {
            if (!p.is_object() || !p.value("path", nlohmann::json()).is_string() || !p.contains("value")) {
                error = where + ": expected each swept field with a path and a value";
                return std::nullopt;
            }
            const auto& value = p["value"];
            const auto text = p.value("text", value.is_string() ? value.get<std::string>() : value.dump());
            design.sweep.push_back({p["path"].get<std::string>(), value, text});
        }
    }
    return design;
}

} // namespace

ExperimentDesign makeDesign(std::string name, std::string file, Team team)
{
    ExperimentDesign design;
    design.name = std::move(name);
    design.file = std::move(file);
    design.path = absolutePath(design.file);
    design.teamJson = teamToJsonText(team);
    // What the team reads is part of what runs: its bytes are hashed too
    // (teams that read nothing keep the hash of their JSON alone).
    const auto folder =
        design.path.empty() ? std::filesystem::path() : std::filesystem::path(design.path).parent_path();
    design.hash = contentHash(design.teamJson + inputsHashText(inputsRead(team, folder)));
    design.team = std::move(team);
    return design;
}

std::vector<std::string> nameDesigns(const std::vector<std::pair<std::string, std::string>>& teamAndFile)
{
    std::map<std::string, int> byName;
    for (const auto& [team, file] : teamAndFile)
        ++byName[team];
    std::vector<std::string> names;
    std::map<std::string, int> seen;
    for (const auto& [team, file] : teamAndFile) {
        std::string name = team;
        if (byName[team] > 1) {
            // Told apart by their files; the same file listed twice by a count.
            const std::string base = std::filesystem::path(file).filename().string();
            if (!base.empty())
                name += " (" + base + ")";
        }
        const int count = ++seen[name];
        if (count > 1)
            name += " #" + std::to_string(count);
        names.push_back(std::move(name));
    }
    return names;
}

std::string ExperimentSpec::tasksHash() const
{
    return tasks ? tasks->contentHash() : contentHash("");
}

nlohmann::ordered_json ExperimentSpec::toJson() const
{
    nlohmann::ordered_json j;
    j["format"] = kSpecFormat;
    j["designs"] = nlohmann::ordered_json::array();
    for (const auto& design : designs)
        j["designs"].push_back(designJson(design));
    j["baseline"] = baseline;
    j["taskset"] = {{"name", tasksetName},
                    {"bundled", tasksetBundled},
                    {"path", tasksetPath},
                    {"hash", tasksHash()},
                    {"tasks", selectedIds(tasks.get())}};
    j["seeds"] = seeds;
    j["scorer"] = judge ? nlohmann::ordered_json{{"kind", "judge"}, {"judge", designJson(*judge)}}
                        : nlohmann::ordered_json{{"kind", "reference"}};
    j["clock"] = std::string(toString(clock));
    if (!vary.empty())
        j["vary"] = vary;
    return j;
}

nlohmann::ordered_json ExperimentSpec::identityJson() const
{
    const auto identity = [](const ExperimentDesign& design) {
        return nlohmann::ordered_json{{"name", design.name}, {"hash", design.hash}};
    };
    nlohmann::ordered_json j;
    j["identity"] = 1;
    j["designs"] = nlohmann::ordered_json::array();
    for (const auto& design : designs)
        j["designs"].push_back(identity(design));
    j["baseline"] = baseline;
    // A bundled set is known by its name; a file by its content alone.
    j["taskset"] = {{"bundled", tasksetBundled ? tasksetName : std::string()},
                    {"hash", tasksHash()},
                    {"tasks", selectedIds(tasks.get())}};
    j["seeds"] = seeds;
    j["scorer"] = judge ? nlohmann::ordered_json{{"kind", "judge"}, {"judge", identity(*judge)}}
                        : nlohmann::ordered_json{{"kind", "reference"}};
    j["clock"] = std::string(toString(clock));
    return j;
}

std::string ExperimentSpec::id() const
{
    if (storedId)
        return *storedId;
    return "e-" + contentHash(identityJson().dump()).substr(0, 12);
}

const SweepParameter* ExperimentDesign::parameter(std::string_view field) const
{
    for (const auto& p : sweep) {
        if (p.path == field)
            return &p;
    }
    return nullptr;
}

std::vector<std::string> ExperimentSpec::designNames() const
{
    std::vector<std::string> names;
    for (const auto& design : designs)
        names.push_back(design.name);
    return names;
}

std::optional<StoredSpec> StoredSpec::fromJson(const std::string& specJson, std::string& error)
{
    auto parsed = parseJsonText(specJson);
    if (!parsed.value || !parsed.value->is_object()) {
        error = "the stored spec is not a JSON object";
        return std::nullopt;
    }
    const auto& j = *parsed.value;
    StoredSpec spec;
    try {
        spec.format = j.value("format", 0);
        if (spec.format != 1 && spec.format != kSpecFormat) {
            error = "the stored spec has an unknown format";
            return std::nullopt;
        }
        const auto& designs = j.at("designs");
        for (size_t i = 0; i < designs.size(); ++i) {
            auto design = designFromJson(designs[i], "design " + std::to_string(i + 1), error);
            if (!design)
                return std::nullopt;
            spec.designs.push_back(std::move(*design));
        }
        spec.baseline = j.at("baseline").get<int>();
        if (spec.baseline < 0 || size_t(spec.baseline) >= spec.designs.size()) {
            error = "the stored spec's baseline " + std::to_string(spec.baseline) + " is not one of its " +
                    std::to_string(spec.designs.size()) + " designs";
            return std::nullopt;
        }
        spec.tasksetName = j.at("taskset").at("name").get<std::string>();
        spec.tasksetBundled = j.at("taskset").value("bundled", false);
        spec.tasksetPath = j.at("taskset").value("path", std::string());
        spec.tasksHash = j.at("taskset").at("hash").get<std::string>();
        spec.taskIds = j.at("taskset").at("tasks").get<std::vector<std::string>>();
        spec.seeds = j.at("seeds").get<std::vector<uint64_t>>();
        const auto& scorer = j.at("scorer");
        if (scorer.at("kind") == "judge") {
            auto judge = designFromJson(scorer.at("judge"), "the judge", error);
            if (!judge)
                return std::nullopt;
            spec.judge = std::move(*judge);
        }
        spec.clock = clockRequestFromString(j.at("clock").get<std::string>()).value_or(ClockRequest::Auto);
        if (const auto vary = j.find("vary"); vary != j.end())
            spec.vary = vary->get<std::vector<std::string>>();
    } catch (const nlohmann::json::exception& e) {
        error = std::string("the stored spec is malformed: ") + e.what();
        return std::nullopt;
    }
    return spec;
}

} // namespace conclave
