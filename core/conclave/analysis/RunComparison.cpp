#include "conclave/analysis/RunComparison.h"

#include <map>

namespace conclave {

RunComparison::RunComparison(const StoredRun& a, const StoredRun& b) : m_a(RunAnalysis::of(a)), m_b(RunAnalysis::of(b))
{
    std::map<NodeId, size_t> index;
    const auto fill = [&](const RunAnalysis& analysis, AgentRunFigures AgentComparison::*side) {
        for (const auto& st : analysis.agents) {
            auto [it, added] = index.emplace(st.node, m_agents.size());
            if (added)
                m_agents.push_back(AgentComparison{st.node, {}, {}});
            m_agents[it->second].*side = {true, st.wallUs, st.tokensIn + st.tokensOut, st.costUsd, st.status};
        }
    };
    fill(m_a, &AgentComparison::a);
    fill(m_b, &AgentComparison::b);
}

const AgentComparison* RunComparison::agent(const NodeId& node) const
{
    for (const auto& r : m_agents) {
        if (r.node == node)
            return &r;
    }
    return nullptr;
}

} // namespace conclave
