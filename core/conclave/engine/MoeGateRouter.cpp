#include "conclave/engine/MoeGateRouter.h"

#include "conclave/engine/RouterLogic.h"

namespace conclave {

MoeGateRouter::MoeGateRouter(size_t topK, double minWeight) : m_topK(topK), m_minWeight(minWeight) {}

RouteDecision MoeGateRouter::decide(const RouterInput& input) const
{
    auto scores = input.gateScores ? input.gateScores() : std::vector<double>{};
    if (scores.empty())
        scores.assign(input.routes.size(), 1.0);
    RouteDecision decision;
    for (const size_t k : RouterLogic::topTargets(scores, m_topK, m_minWeight))
        decision.edges.push_back(input.routes[k].edge);
    return decision;
}

} // namespace conclave
