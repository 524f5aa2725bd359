#pragma once

#include "conclave/engine/RouterBehaviour.h"
#include "conclave/model/Price.h"
#include "conclave/routing/RoutePolicy.h"
#include "conclave/routing/RouterModel.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace conclave {

class RouterPredictor;

// The `learned` router strategy's behaviour (docs/routing.md): a trained
// router file predicts, for the router's input, the chance each route's
// model answers right; RoutePolicy picks one route from those chances and
// the routes' expected call costs. One route fires. Made by session/ when a
// team is prepared (the file read and checked against the routes then);
// immutable, shared by every run; decides synchronously, never asks a model.
class LearnedRouter final : public RouterBehaviour {
public:
    // One route as prepared: its edge's target and what its call costs.
    struct Route {
        NodeId target;
        size_t model = 0;        // index into the predictor's models
        Price price;             // USD per million tokens of the target's model
        double outputTokens = 0; // the target's max_tokens, else kAssumedOutputTokens
    };
    static constexpr double kAssumedOutputTokens = 256;

    LearnedRouter(std::shared_ptr<const RouterPredictor> predictor, RoutePolicy::Kind policy, double threshold,
                  double costWeight, std::vector<Route> routes, std::optional<NodeId> strong, std::optional<NodeId> weak);

    RouteDecision decide(const RouterInput& input) const override;

    // Every prepared route's predicted p and expected cost for a text, in route order
    // (what decide() weighs; calibrate-threshold reads it over a task set).
    std::vector<RoutePolicy::Route> predicted(std::string_view text) const;
    // strong_weak's two routes, as indices into predicted(); unset for another policy or a missing one.
    std::optional<size_t> routeIndex(const std::optional<NodeId>& target) const;
    const std::optional<NodeId>& strong() const { return m_strong; }
    const std::optional<NodeId>& weak() const { return m_weak; }
    RoutePolicy::Kind policy() const { return m_policy; }
    const std::vector<Route>& routes() const { return m_routes; }
    // The router file it predicts with (its models, method and held-out tasks).
    const RouterModel& model() const;

private:
    std::shared_ptr<const RouterPredictor> m_predictor;
    RoutePolicy::Kind m_policy;
    double m_threshold;
    double m_costWeight;
    std::vector<Route> m_routes;
    std::optional<NodeId> m_strong;
    std::optional<NodeId> m_weak;
};

} // namespace conclave
