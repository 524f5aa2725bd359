#include "conclave/routing/ThresholdCalibration.h"

#include <algorithm>
#include <cmath>
#include <functional>

namespace conclave {

size_t ThresholdCalibration::dearest(const std::vector<RoutePolicy::Route>& routes)
{
    size_t out = 0;
    for (size_t i = 1; i < routes.size(); ++i) {
        if (routes[i].cost >= routes[out].cost)
            out = i;
    }
    return out;
}

ThresholdCalibration::Result ThresholdCalibration::shareAt(RoutePolicy::Kind kind,
                                                           const std::vector<std::vector<RoutePolicy::Route>>& tasks,
                                                           double threshold, size_t strong, size_t weak)
{
    Result r;
    r.threshold = threshold;
    for (const auto& routes : tasks) {
        const size_t target = kind == RoutePolicy::Kind::StrongWeak ? strong : dearest(routes);
        if (RoutePolicy::decide(kind, routes, threshold, 0.0, strong, weak).route == target)
            ++r.strongTasks;
    }
    r.share = tasks.empty() ? 0.0 : double(r.strongTasks) / double(tasks.size());
    return r;
}

std::optional<ThresholdCalibration::Result> ThresholdCalibration::forShare(
    RoutePolicy::Kind kind, const std::vector<std::vector<RoutePolicy::Route>>& tasks, double share, size_t strong,
    size_t weak, std::string& error)
{
    if (kind == RoutePolicy::Kind::MaxUtility) {
        error = "max_utility has no threshold: it trades p against cost by cost_weight (sweep it with eval --vary)";
        return std::nullopt;
    }
    if (tasks.empty()) {
        error = "no tasks to calibrate on";
        return std::nullopt;
    }
    if (!(share >= 0 && share <= 1)) {
        error = "the strong share must be from 0 to 1";
        return std::nullopt;
    }
    if (kind == RoutePolicy::Kind::StrongWeak) {
        std::vector<double> gains;
        for (const auto& routes : tasks)
            gains.push_back(routes[strong].p - routes[weak].p);
        std::sort(gains.begin(), gains.end(), std::greater<>());
        const auto k = static_cast<size_t>(std::llround(share * double(gains.size())));
        const double threshold = k == 0 ? std::nextafter(gains.front(), 2.0) : gains[k - 1];
        return shareAt(kind, tasks, threshold, strong, weak);
    }
    std::vector<double> candidates{0.0, std::nextafter(1.0, 2.0)};
    for (const auto& routes : tasks)
        for (const auto& route : routes)
            candidates.push_back(route.p);
    std::sort(candidates.begin(), candidates.end());
    candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
    std::optional<Result> best;
    for (const double t : candidates) {
        const auto r = shareAt(kind, tasks, t, strong, weak);
        if (!best || std::abs(r.share - share) < std::abs(best->share - share) - 1e-12)
            best = r;
    }
    return best;
}

} // namespace conclave
