#include "conclave/engine/LlmRouter.h"

#include "conclave/engine/PromptBuilder.h"
#include "conclave/engine/ReplyParser.h"

#include <algorithm>

namespace conclave {

LlmRouter::LlmRouter(std::optional<std::string> defaultRoute) : m_default(std::move(defaultRoute)) {}

std::vector<std::string> LlmRouter::labels(const RouterInput& input)
{
    std::vector<std::string> out;
    for (const auto& route : input.routes) {
        if (route.label && std::find(out.begin(), out.end(), *route.label) == out.end())
            out.push_back(*route.label);
    }
    return out;
}

RouteQuestion LlmRouter::question(const RouterInput& input) const
{
    const auto choices = labels(input);
    RouteQuestion q;
    q.system = PromptBuilder::routeChoiceSystem();
    q.prompt = PromptBuilder::routeChoicePrompt(choices, input.text);
    q.inputs.task = input.text;
    q.inputs.routes = choices;
    return q;
}

RouteDecision LlmRouter::answer(const RouterInput& input, std::string_view reply) const
{
    auto label = ReplyParser::routeLabel(reply, labels(input));
    if (label.empty() && m_default)
        label = *m_default;
    RouteDecision decision;
    for (const auto& route : input.routes) {
        if (route.label == label)
            decision.edges.push_back(route.edge);
    }
    decision.answer = label;
    return decision;
}

} // namespace conclave
