#pragma once

#include "conclave/experiment/TeamCostBound.h"
#include "conclave/model/Team.h"
#include "conclave/serve/ChatCompletionRequest.h"
#include "conclave/session/PreparedTeam.h"

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace conclave {

class Engine;

// Which node's text a served answer is (the output's one input) and whether
// its tokens can stream as they come (docs/serve.md, "Streaming"): an
// expert's, a synthesize aggregator's, or a decompose coordinator's final
// combine call's; any other node's text comes whole when it ends.
struct StreamRule {
    enum class Kind { Tokens, CombineTokens, Whole };
    NodeId feeder;
    Kind kind = Kind::Whole;

    static StreamRule of(const RunPlan& plan);
};

// One team a server answers for, prepared once for every request.
struct ServedTeam {
    std::string id;               // the `model` clients ask for
    std::filesystem::path file;   // empty: a team served as it is on screen
    std::shared_ptr<const PreparedTeam> prepared;
    std::optional<ServeInput> input; // unset: the server's
    std::string hash;             // contentHash of its canonical JSON (runs.team_hash)
    StreamRule stream;
    std::shared_ptr<const TeamCostBound> costBound; // what a run may spend, for daily budgets

    // What one run on an input of `inputChars` characters may cost at most,
    // capped by the team's own budget: what a key's daily budget reserves.
    double reserveUsd(size_t inputChars) const;

    const Team& team() const { return prepared->plan->team(); }
};

// The teams of one server: ids unique, every team valid. Immutable: a reload
// makes a new set, and requests in flight keep the one they started with.
class ServedTeams {
public:
    // `FILE[=NAME][:last-user|:transcript]` as `conclave serve` reads it.
    struct Spec {
        std::filesystem::path file;
        std::string name;                // empty: the file's name without .team.json
        std::optional<ServeInput> input;
    };
    static std::optional<Spec> parseSpec(std::string_view text, std::string& error);
    // A team file's id: "triage" for triage.team.json (else without .json).
    static std::string idOf(const std::filesystem::path& file);

    struct Loaded {
        std::shared_ptr<const ServedTeams> teams;
        std::string error; // every problem, one a line, each naming its file
    };
    static Loaded load(const std::vector<Spec>& specs, const Engine& engine);
    // A team given in memory (the studio's open team), found in `folder`.
    static Loaded ofTeam(const Team& team, const std::string& id, const std::filesystem::path& folder,
                         const Engine& engine);

    const ServedTeam* find(const std::string& id) const;
    const std::vector<ServedTeam>& all() const { return m_teams; }
    // The specs it was loaded from (a reload reads them again).
    const std::vector<Spec>& specs() const { return m_specs; }

private:
    std::vector<ServedTeam> m_teams;
    std::vector<Spec> m_specs;
};

} // namespace conclave
