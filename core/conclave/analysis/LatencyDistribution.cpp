#include "conclave/analysis/LatencyDistribution.h"

#include "conclave/analysis/Quantile.h"
#include "conclave/analysis/RunAnalysis.h"

#include <algorithm>

namespace conclave {

std::vector<AgentLatency> LatencyDistribution::perAgent(const std::vector<StoredRun>& runs)
{
    std::vector<NodeId> order;
    std::map<NodeId, std::vector<double>> samples;
    for (const auto& run : runs) {
        for (const auto& st : RunAnalysis::of(run).agents) {
            if (!samples.contains(st.node))
                order.push_back(st.node);
            auto& v = samples[st.node];
            if (st.wallUs > 0 || st.calls > 0)
                v.push_back(double(st.wallUs) / 1000.0);
        }
    }
    return summarize(order, samples);
}

std::vector<AgentLatency> LatencyDistribution::perAgent(const std::vector<TrialRecord>& trials, int design)
{
    std::vector<NodeId> order;
    std::map<NodeId, std::vector<double>> samples;
    for (const auto& trial : trials) {
        if (trial.design != design)
            continue;
        for (const auto& agent : trial.agents) {
            const NodeId node(agent.node);
            if (!samples.contains(node))
                order.push_back(node);
            auto& v = samples[node];
            for (const int64_t us : agent.attemptsUs)
                v.push_back(double(us) / 1000.0);
        }
    }
    return summarize(order, samples);
}

std::vector<AgentLatency> LatencyDistribution::summarize(const std::vector<NodeId>& order,
                                                         std::map<NodeId, std::vector<double>>& samples)
{
    std::vector<AgentLatency> agents;
    for (const auto& node : order) {
        auto v = samples[node];
        if (v.empty())
            continue;
        std::sort(v.begin(), v.end());
        agents.push_back({node, int(v.size()), v.front(), Quantile::of(v, 0.25), Quantile::of(v, 0.5),
                          Quantile::of(v, 0.75), v.back()});
    }
    return agents;
}

} // namespace conclave
