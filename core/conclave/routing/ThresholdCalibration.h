#pragma once

#include "conclave/routing/RoutePolicy.h"

#include <optional>
#include <string>
#include <vector>

namespace conclave {

// The threshold that sends a wanted share of tasks to the strong route
// (`conclave calibrate-threshold`): for strong_weak, the route `strong`
// names; for cheapest_above, the dearest route. Uses the predictions only,
// never whether the answers were right, so it may be set on any tasks.
//  strong_weak     the gains g = p_strong − p_weak sorted high to low; for
//                  k = round(share · n) tasks, the k-th gain (k = 0: just
//                  above the highest), so g ≥ threshold holds for k tasks
//                  (more only where gains tie);
//  cheapest_above  of every predicted p (and 0 and just above 1), the value
//                  whose strong share is nearest the wanted one (ties: the
//                  smaller threshold).
class ThresholdCalibration {
public:
    struct Result {
        double threshold = 0;
        double share = 0; // the share it sends to the strong route on these tasks
        size_t strongTasks = 0;
    };

    // tasks: per task, every route's p and cost in route order; non-empty, every task with the same routes.
    static std::optional<Result> forShare(RoutePolicy::Kind kind, const std::vector<std::vector<RoutePolicy::Route>>& tasks,
                                          double share, size_t strong, size_t weak, std::string& error);
    // The strong share a threshold gives.
    static Result shareAt(RoutePolicy::Kind kind, const std::vector<std::vector<RoutePolicy::Route>>& tasks,
                          double threshold, size_t strong, size_t weak);
    // cheapest_above's strong route: the dearest (ties: the later, as decide() prefers the earlier cheap one).
    static size_t dearest(const std::vector<RoutePolicy::Route>& routes);
};

} // namespace conclave
