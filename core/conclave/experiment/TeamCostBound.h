#pragma once

#include "conclave/engine/RunPlan.h"
#include "conclave/model/Team.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <set>
#include <string>

namespace conclave {

// What one run of a team can spend on paid (openai) endpoints for an input
// of a given length; local-moe calls are simulated and free.
struct RunCostBound {
    double typicalUsd = 0; // every call answered at its first attempt
    double upperUsd = 0;   // every attempt of every call made and billed in full
    // The longest text the run can answer with (its output's), in characters:
    // what a judge reading the answer is given.
    size_t outputChars = 0;
    std::set<std::string> unpriced; // paid models with no price: counted as free
    std::set<std::string> uncapped; // nodes whose paid calls set no max_tokens: counted at kAssumedMaxTokens out
};

// The cost rule behind ExperimentSetup::costBound, walked over the team's
// graph (docs/experiments.md, "Cost bound"). Per model call: its prompt's
// tokens in (estimateTokens of its system prompt and its prompt as the engine
// builds them, every placeholder at its longest) and its max_tokens out, at
// the backend's price (Price::costUsd). The upper bound makes every call:
// - every route of every router fires, and no aggregator stops early;
// - every attempt fails but the last: 1 + retries on the model, then 1 +
//   retries on fallback_model, each billed in full at its model's price;
// - meetings hold every round (max_rounds, default 3): round_robin and debate
//   ask every member each round, cascade every member once, adaptive its
//   first `initial` and one more per round; decompose plans max_subtasks
//   subtasks, each as long as the whole plan, then combines them;
// - a member that is a coordinator holds its whole meeting each time it is
//   asked; transcripts hold every earlier turn, each answer as long as the
//   member's reply can be; {{inputs}} and {{from.X}} hold their nodes'
//   longest output (a reply: max_tokens; a vote: its longest input; concat
//   and a meeting: everything they join).
// The typical figure is the same walk with one attempt per call and each
// decompose subtask a share of the plan. A node without a prompt has the
// engine's default template for it.
class TeamCostBound {
public:
    // Output tokens assumed for a paid call without max_tokens.
    static constexpr int64_t kAssumedMaxTokens = 512;

    explicit TeamCostBound(const Team& team);

    // False when the team cannot be planned (it would not run either).
    bool valid() const { return m_plan != nullptr; }
    // Whether any node that calls a model calls an openai backend.
    bool paid() const { return m_paid; }
    // The bound of one run on an input of `inputChars` characters.
    RunCostBound of(size_t inputChars) const;

private:
    std::shared_ptr<const RunPlan> m_plan;
    bool m_paid = false;
};

} // namespace conclave
