#pragma once

#include "conclave/analysis/RunAnalysis.h"

#include <cstdint>
#include <vector>

namespace conclave {

// One agent's figures in one run of a comparison.
struct AgentRunFigures {
    bool present = false;  // whether the run's analysis has the agent
    int64_t latencyUs = 0; // the agent's wall time (first start to last end)
    int64_t tokens = 0;    // in + out
    double costUsd = 0;
    Status status = Status::Skipped;
};

// One agent in two runs A and B: its figures in each, and B − A.
struct AgentComparison {
    NodeId node;
    AgentRunFigures a, b;
    int64_t latencyDelta() const { return b.latencyUs - a.latencyUs; }
    int64_t tokensDelta() const { return b.tokens - a.tokens; }
    double costDelta() const { return b.costUsd - a.costUsd; }
    bool statusChanged() const { return a.status != b.status; }
};

// Two runs side by side, agent by agent: each run's RunAnalysis, and per
// agent (matched by node id; A's agents in A's order, then B's other agents
// in B's order) its latency, tokens and cost in both runs with the plain
// differences B − A. An agent missing from a run counts 0 there (status
// skipped), so its delta is the other run's whole figure.
class RunComparison {
public:
    RunComparison() = default;
    RunComparison(const StoredRun& a, const StoredRun& b);

    const RunAnalysis& analysisA() const { return m_a; }
    const RunAnalysis& analysisB() const { return m_b; }
    const std::vector<AgentComparison>& agents() const { return m_agents; }
    // The agent's row; nullptr when neither run has it.
    const AgentComparison* agent(const NodeId& node) const;

private:
    RunAnalysis m_a, m_b;
    std::vector<AgentComparison> m_agents;
};

} // namespace conclave
