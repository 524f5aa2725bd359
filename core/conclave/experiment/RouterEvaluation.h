#pragma once

#include "conclave/analysis/CurveBootstrap.h"
#include "conclave/experiment/ModelOutcomes.h"
#include "conclave/routing/RoutePolicy.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace conclave {

class RouterPredictor;

// A learned strong_weak router judged by replay on measured single-model
// outcomes (ModelOutcomes): routing a task to a model gets that model's
// measured answers to it, seed by seed, and their cost. The router's variants
// are thresholds that send the wanted shares of the tasks to the strong model
// (ThresholdCalibration on these tasks' predictions, which reads no
// outcome); each variant's per-task quality, cost and strong share, with the
// two models alone as references, go to CurveBootstrap. Only seeds both
// models ran on a task count; a task either model never ran is left out.
class RouterEvaluation {
public:
    struct Options {
        std::string strong;
        std::string weak;
        std::vector<double> shares{0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0};
        // A two-member cascade rather than a router: the weak model always
        // answers first, so a task sent on to the strong one costs both.
        bool cascade = false;
        std::string name; // the curve's name; "learned strong_weak (STRONG / WEAK)" when empty
    };

    // A task's predicted chances {p_weak, p_strong}.
    using Predict = std::function<std::pair<double, double>(const Task&)>;

    // taskKeys: which of outcomes.tasks() to evaluate on (a held-out part).
    static std::optional<CurveBootstrapInput> strongWeak(const ModelOutcomes& outcomes,
                                                         const std::vector<std::string>& taskKeys,
                                                         const RouterPredictor& router, const Options& options,
                                                         std::string& error);
    // The same with any predictions (a bench's oracle that knows the true chances).
    static std::optional<CurveBootstrapInput> strongWeak(const ModelOutcomes& outcomes,
                                                         const std::vector<std::string>& taskKeys,
                                                         const Predict& predict, const Options& options,
                                                         std::string& error);
};

} // namespace conclave
