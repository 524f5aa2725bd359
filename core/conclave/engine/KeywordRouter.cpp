#include "conclave/engine/KeywordRouter.h"

#include "conclave/engine/RouterLogic.h"

#include <algorithm>

namespace conclave {

KeywordRouter::KeywordRouter(RouteTable routes, std::optional<std::string> defaultRoute)
    : m_routes(std::move(routes)), m_default(std::move(defaultRoute))
{
}

RouteDecision KeywordRouter::decide(const RouterInput& input) const
{
    const auto labels = RouterLogic::keywordLabels(m_routes, m_default, input.text);
    RouteDecision decision;
    for (const auto& route : input.routes) {
        if (route.label && std::find(labels.begin(), labels.end(), *route.label) != labels.end())
            decision.edges.push_back(route.edge);
    }
    return decision;
}

} // namespace conclave
