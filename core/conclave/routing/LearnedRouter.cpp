#include "conclave/routing/LearnedRouter.h"

#include "conclave/routing/RouterPredictor.h"
#include "conclave/util/TokenEstimate.h"

namespace conclave {

LearnedRouter::LearnedRouter(std::shared_ptr<const RouterPredictor> predictor, RoutePolicy::Kind policy,
                             double threshold, double costWeight, std::vector<Route> routes,
                             std::optional<NodeId> strong, std::optional<NodeId> weak)
    : m_predictor(std::move(predictor)), m_policy(policy), m_threshold(threshold), m_costWeight(costWeight),
      m_routes(std::move(routes)), m_strong(std::move(strong)), m_weak(std::move(weak))
{
}

std::vector<RoutePolicy::Route> LearnedRouter::predicted(std::string_view text) const
{
    const auto p = m_predictor->predict(text);
    const double tokensIn = double(estimateTokens(text));
    std::vector<RoutePolicy::Route> out;
    for (const auto& route : m_routes)
        out.push_back({m_predictor->model().models[route.model], p[route.model],
                       route.price.costUsd(tokensIn, route.outputTokens)});
    return out;
}

const RouterModel& LearnedRouter::model() const
{
    return m_predictor->model();
}

std::optional<size_t> LearnedRouter::routeIndex(const std::optional<NodeId>& target) const
{
    for (size_t i = 0; target && i < m_routes.size(); ++i) {
        if (m_routes[i].target == *target)
            return i;
    }
    return std::nullopt;
}

RouteDecision LearnedRouter::decide(const RouterInput& input) const
{
    RouteDecision decision;
    const auto all = predicted(input.text);
    // The candidates in route order, each matched to its prepared route by target.
    std::vector<RoutePolicy::Route> routes;
    std::vector<size_t> edges;
    size_t strong = 0;
    size_t weak = 0;
    for (const auto& candidate : input.routes) {
        for (size_t r = 0; r < m_routes.size(); ++r) {
            const auto& route = m_routes[r];
            if (route.target != candidate.target)
                continue;
            if (m_strong && route.target == *m_strong)
                strong = routes.size();
            if (m_weak && route.target == *m_weak)
                weak = routes.size();
            routes.push_back(all[r]);
            edges.push_back(candidate.edge);
            break;
        }
    }
    if (routes.empty())
        return decision;
    const auto chosen = RoutePolicy::decide(m_policy, routes, m_threshold, m_costWeight, strong, weak);
    decision.edges.push_back(edges[chosen.route]);
    decision.note = chosen.note;
    return decision;
}

} // namespace conclave
