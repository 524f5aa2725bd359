#include "conclave/engine/BroadcastRouter.h"

namespace conclave {

RouteDecision BroadcastRouter::decide(const RouterInput& input) const
{
    RouteDecision decision;
    for (const auto& route : input.routes)
        decision.edges.push_back(route.edge);
    return decision;
}

} // namespace conclave
