#pragma once

#include "conclave/engine/RouterBehaviour.h"

#include <optional>
#include <string>

namespace conclave {

// Strategy `keyword`: the routes whose label's keywords occur in the input
// (RouterLogic::keywordLabels), or the default route's when none do.
class KeywordRouter : public RouterBehaviour {
public:
    KeywordRouter(RouteTable routes, std::optional<std::string> defaultRoute);

    RouteDecision decide(const RouterInput& input) const override;

private:
    RouteTable m_routes;
    std::optional<std::string> m_default;
};

} // namespace conclave
