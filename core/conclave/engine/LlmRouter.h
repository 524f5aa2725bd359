#pragma once

#include "conclave/engine/RouterBehaviour.h"

#include <optional>
#include <string>
#include <vector>

namespace conclave {

// Strategy `llm`: asks the router's model to name one route label; the
// routes with that label fire, or the default route's when the reply names
// none. The router's answer is the label.
class LlmRouter : public RouterBehaviour {
public:
    explicit LlmRouter(std::optional<std::string> defaultRoute);

    bool asksModel() const override { return true; }
    RouteQuestion question(const RouterInput& input) const override;
    RouteDecision answer(const RouterInput& input, std::string_view reply) const override;

private:
    // The routes' labels, each once, in route order.
    static std::vector<std::string> labels(const RouterInput& input);

    std::optional<std::string> m_default;
};

} // namespace conclave
