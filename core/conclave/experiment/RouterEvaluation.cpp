#include "conclave/experiment/RouterEvaluation.h"

#include "conclave/routing/RouterPredictor.h"
#include "conclave/routing/ThresholdCalibration.h"

namespace conclave {

std::optional<CurveBootstrapInput> RouterEvaluation::strongWeak(const ModelOutcomes& outcomes,
                                                                const std::vector<std::string>& taskKeys,
                                                                const RouterPredictor& router, const Options& options,
                                                                std::string& error)
{
    for (const auto* name : {&options.strong, &options.weak}) {
        if (!router.model().modelIndex(*name)) {
            error = "the router file does not know model \"" + *name + "\"";
            return std::nullopt;
        }
    }
    const size_t strong = *router.model().modelIndex(options.strong);
    const size_t weak = *router.model().modelIndex(options.weak);
    return strongWeak(
        outcomes, taskKeys,
        [&](const Task& task) {
            const auto p = router.predict(task.prompt);
            return std::pair{p[weak], p[strong]};
        },
        options, error);
}

std::optional<CurveBootstrapInput> RouterEvaluation::strongWeak(const ModelOutcomes& outcomes,
                                                                const std::vector<std::string>& taskKeys,
                                                                const Predict& predict, const Options& options,
                                                                std::string& error)
{
    // Per kept task: the two models' mean correctness and cost over their shared seeds.
    struct Kept {
        double quality[2] = {0, 0};
        double cost[2] = {0, 0};
        std::vector<RoutePolicy::Route> routes;
    };
    std::vector<Kept> kept;
    for (const auto& key : taskKeys) {
        const auto found = outcomes.tasks().find(key);
        if (found == outcomes.tasks().end())
            continue;
        const auto& byModel = found->second.byModel;
        const auto s = byModel.find(options.strong);
        const auto w = byModel.find(options.weak);
        if (s == byModel.end() || w == byModel.end())
            continue;
        Kept k;
        int seeds = 0;
        for (const auto& [seed, strongOutcome] : s->second) {
            const auto weakOutcome = w->second.find(seed);
            if (weakOutcome == w->second.end())
                continue;
            ++seeds;
            k.quality[0] += weakOutcome->second.correct ? 1 : 0;
            k.quality[1] += strongOutcome.correct ? 1 : 0;
            k.cost[0] += weakOutcome->second.costUsd;
            k.cost[1] += strongOutcome.costUsd;
        }
        if (seeds == 0)
            continue;
        for (int m = 0; m < 2; ++m) {
            k.quality[m] /= seeds;
            k.cost[m] /= seeds;
        }
        const auto [pWeak, pStrong] = predict(found->second.task);
        k.routes = {{options.weak, pWeak, k.cost[0]}, {options.strong, pStrong, k.cost[1]}};
        kept.push_back(std::move(k));
    }
    if (kept.empty()) {
        error = "no task was measured on both " + options.weak + " and " + options.strong;
        return std::nullopt;
    }

    CurveBootstrapInput input;
    input.references.resize(2);
    for (const auto& k : kept) {
        for (int m = 0; m < 2; ++m) {
            input.references[size_t(m)].quality.push_back(k.quality[m]);
            input.references[size_t(m)].costUsd.push_back(k.cost[m]);
        }
    }
    CurveInput curve;
    curve.name =
        options.name.empty() ? "learned strong_weak (" + options.strong + " / " + options.weak + ")" : options.name;
    curve.weak = 0;
    curve.strong = 1;
    std::vector<std::vector<RoutePolicy::Route>> routes;
    for (const auto& k : kept)
        routes.push_back(k.routes);
    for (const double share : options.shares) {
        const auto threshold =
            ThresholdCalibration::forShare(RoutePolicy::Kind::StrongWeak, routes, share, 1, 0, error);
        if (!threshold)
            return std::nullopt;
        TaskFigures figures;
        for (const auto& k : kept) {
            const size_t chosen =
                RoutePolicy::decide(RoutePolicy::Kind::StrongWeak, k.routes, threshold->threshold, 0, 1, 0).route;
            figures.quality.push_back(k.quality[chosen]);
            figures.costUsd.push_back(k.cost[chosen] + (options.cascade && chosen == 1 ? k.cost[0] : 0));
            figures.strongShare.push_back(chosen == 1 ? 1.0 : 0.0);
        }
        curve.variants.push_back(std::move(figures));
    }
    input.curves.push_back(std::move(curve));
    return input;
}

} // namespace conclave
