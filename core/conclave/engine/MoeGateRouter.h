#pragma once

#include "conclave/engine/RouterBehaviour.h"

#include <cstddef>

namespace conclave {

// Strategy `moe_gate`: the top k targets by the mixture-of-experts gate's
// score (RouterLogic::topTargets), those below min_weight's share dropped.
// Without a gate every target scores the same, so the first k fire.
class MoeGateRouter : public RouterBehaviour {
public:
    MoeGateRouter(size_t topK, double minWeight);

    RouteDecision decide(const RouterInput& input) const override;

private:
    size_t m_topK;
    double m_minWeight;
};

} // namespace conclave
