#include "conclave/serve/ServedTeams.h"

#include "conclave/diagnostics/Problem.h"
#include "conclave/io/ContentHash.h"
#include "conclave/io/TeamFile.h"
#include "conclave/io/TeamJson.h"
#include "conclave/session/Engine.h"

#include <algorithm>
#include <map>

namespace conclave {

namespace {

bool endsWith(std::string_view text, std::string_view end)
{
    return text.size() >= end.size() && text.substr(text.size() - end.size()) == end;
}

// Strips a trailing ":last-user" or ":transcript" into `input`.
void takeInputSuffix(std::string& text, std::optional<ServeInput>& input)
{
    for (const auto mode : {ServeInput::LastUser, ServeInput::Transcript}) {
        const std::string suffix = ":" + std::string(toString(mode));
        if (endsWith(text, suffix) && text.size() > suffix.size()) {
            text.resize(text.size() - suffix.size());
            input = mode;
            return;
        }
    }
}

std::optional<ServedTeam> prepare(const Team& team, std::string id, std::filesystem::path file,
                                  std::optional<ServeInput> input, const std::filesystem::path& folder,
                                  const Engine& engine, std::string& error)
{
    auto prepared = engine.prepare(team, folder);
    if (!prepared.team) {
        error = prepared.error;
        return std::nullopt;
    }
    ServedTeam served;
    served.id = std::move(id);
    served.file = std::move(file);
    served.input = input;
    served.hash = contentHash(teamToJsonText(team));
    served.stream = StreamRule::of(*prepared.team->plan);
    served.costBound = std::make_shared<const TeamCostBound>(team);
    served.prepared = std::move(prepared.team);
    return served;
}

} // namespace

double ServedTeam::reserveUsd(size_t inputChars) const
{
    double usd = costBound && costBound->valid() ? costBound->of(inputChars).upperUsd : 0.0;
    const auto& budget = team().budget;
    if (budget && budget->maxCostUsd)
        usd = std::min(usd, *budget->maxCostUsd);
    return usd;
}

StreamRule StreamRule::of(const RunPlan& plan)
{
    StreamRule rule;
    const auto& output = plan.at(plan.outputIndex());
    if (output.in.size() != 1)
        return rule;
    const auto& feeder = plan.at(output.in.front().first);
    rule.feeder = feeder.node->id;
    const auto& config = feeder.node->config;
    if (feeder.node->kind == NodeKind::Expert)
        rule.kind = Kind::Tokens;
    else if (feeder.node->kind == NodeKind::Aggregator && config.aggregatorStrategy == AggregatorStrategy::Synthesize)
        rule.kind = Kind::Tokens;
    else if (feeder.node->kind == NodeKind::Coordinator && config.mode == CoordinatorMode::Decompose)
        rule.kind = Kind::CombineTokens;
    return rule;
}

std::optional<ServedTeams::Spec> ServedTeams::parseSpec(std::string_view text, std::string& error)
{
    Spec spec;
    std::string rest(text);
    takeInputSuffix(rest, spec.input);
    const auto slash = rest.rfind('/');
    const auto eq = rest.find('=', slash == std::string::npos ? 0 : slash);
    if (eq != std::string::npos) {
        spec.name = rest.substr(eq + 1);
        rest.resize(eq);
        if (!spec.input)
            takeInputSuffix(rest, spec.input);
        if (spec.name.empty()) {
            error = "\"" + std::string(text) + "\": expected FILE=NAME with a name after =";
            return std::nullopt;
        }
    }
    if (rest.empty()) {
        error = "\"" + std::string(text) + "\": expected a team file";
        return std::nullopt;
    }
    spec.file = rest;
    return spec;
}

std::string ServedTeams::idOf(const std::filesystem::path& file)
{
    std::string name = file.filename().string();
    for (const std::string_view end : {".team.json", ".json"}) {
        if (endsWith(name, end) && name.size() > end.size()) {
            name.resize(name.size() - end.size());
            break;
        }
    }
    return name;
}

ServedTeams::Loaded ServedTeams::load(const std::vector<Spec>& specs, const Engine& engine)
{
    auto teams = std::make_shared<ServedTeams>();
    teams->m_specs = specs;
    std::string errors;
    std::map<std::string, std::filesystem::path> seen;
    for (const auto& spec : specs) {
        const std::string id = spec.name.empty() ? idOf(spec.file) : spec.name;
        if (const auto it = seen.find(id); it != seen.end()) {
            errors += "two teams are served as \"" + id + "\": " + it->second.string() + " and " +
                      spec.file.string() + "; name one with FILE=NAME\n";
            continue;
        }
        seen.emplace(id, spec.file);
        auto loaded = loadTeamFile(spec.file);
        if (!loaded.team) {
            for (const auto& p : loaded.problems) {
                if (p.isError())
                    errors += formatProblem(p, spec.file.string()) + "\n";
            }
            continue;
        }
        std::string error;
        auto served = prepare(*loaded.team, id, spec.file, spec.input, spec.file.parent_path(), engine, error);
        if (!served) {
            errors += spec.file.string() + ": " + error + "\n";
            continue;
        }
        teams->m_teams.push_back(std::move(*served));
    }
    if (!errors.empty()) {
        errors.pop_back();
        return {nullptr, errors};
    }
    return {std::move(teams), {}};
}

ServedTeams::Loaded ServedTeams::ofTeam(const Team& team, const std::string& id, const std::filesystem::path& folder,
                                        const Engine& engine)
{
    std::string error;
    auto served = prepare(team, id, {}, std::nullopt, folder, engine, error);
    if (!served)
        return {nullptr, id + ": " + error};
    auto teams = std::make_shared<ServedTeams>();
    teams->m_teams.push_back(std::move(*served));
    return {std::move(teams), {}};
}

const ServedTeam* ServedTeams::find(const std::string& id) const
{
    for (const auto& team : m_teams) {
        if (team.id == id)
            return &team;
    }
    return nullptr;
}

} // namespace conclave
