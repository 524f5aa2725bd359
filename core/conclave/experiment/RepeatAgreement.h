#pragma once

#include "conclave/experiment/CalibrationSamples.h"
#include "conclave/experiment/JointFit.h"

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace conclave {

// How often a model asked the same again answers alike beyond what its tasks'
// difficulty shares: the simulator's `repeat_agreement` κ (LocalResponder: each
// call takes the request's standing draws with chance √κ, so two calls asked
// the same agree with chance κ and are otherwise independent given the task).
//
// The data: a task the model answered under k ≥ 2 seeds, one answer per seed
// (answers of one model to one task under one seed are copies of one call).
// c_t is the share of its k(k − 1)/2 pairs of seeds both right or both wrong.
// Were its calls independent given the task's difficulty z, a pair would agree
// with chance
//     e_t = E[p(z)² + (1 − p(z))²],   p(z) = Φ(α − β·z)
// (the model's curve in the task's domain), the expectation over z's posterior
// given the *other* models' answers on the task (JointFit::posteriorMean; its
// N(0, 1) prior when no other model answered it), so that the model's own
// repeats do not vouch for themselves. Over the n such tasks, with c̄ and ē
// their means,
//     κ = (c̄ − ē) / (1 − ē),   clamped to [0, 1]
// (the excess of agreement over chance, as Cohen's κ reads it). A deterministic
// endpoint has c̄ = 1, so κ = 1. Needs kMinTasks tasks; 0 when ē = 1.
class RepeatAgreement {
public:
    static constexpr int64_t kMinTasks = 10;
    struct Model {
        int64_t tasks = 0;    // tasks answered under two seeds or more
        double observed = 0;  // c̄
        double expected = 0;  // ē
        double fitted = 0;    // κ; only when tasks ≥ kMinTasks
    };
    // An answer's curve on its task from the joint fit (α, β, whether it was
    // right) and how much it counts.
    using LineOf = std::function<JointFit::Line(const CalibrationSamples::Answer&, double weight)>;

    // Per model with at least one task under two seeds. `weights` has one
    // entry per answer (ModelCalibration's copies-count-once weights).
    static std::map<std::string, Model> fit(const std::vector<CalibrationSamples::Answer>& answers,
                                            const std::vector<double>& weights, const LineOf& lineOf);
};

} // namespace conclave
