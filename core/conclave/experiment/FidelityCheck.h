#pragma once

#include "conclave/experiment/FidelityReport.h"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace conclave {

class Engine;
class RunQueries;

// `conclave fidelity` (docs/fidelity.md): how far the simulator, calibrated
// on one part of the measured tasks, predicts every measured design on the
// other part. The tasks are split by TaskSplit::holdout(share, seed): part 0
// is calibrated on (ModelCalibration, CalibrationSamples read with only
// those tasks' trials), part 1 is predicted and compared; with K folds,
// each of K parts in turn (Options::folds), the folds' trials pooled. Each measured
// design is predicted twice on the held-out tasks with the experiment's
// seeds: simulated (FidelityTwin::simulated, its accuracy CI with the
// calibration's uncertainty, CalibrationUncertainty) and replayed from the
// recorded calls of the other measured designs only (leave-one-design-out,
// what was not recorded simulated); the replay of its own calls only is
// the reproduction check. Predictions run on `engine`, on the
// simulated clock; recorded backends read the engine's store.
class FidelityCheck {
public:
    struct Options {
        double holdout = 0.5;
        // 1: one split, part 1 (`holdout` of the tasks) predicted from a
        // calibration on part 0. K from 2 to 10: K-fold cross-fitting, K parts
        // of 1/K each, every part predicted from a calibration on the other
        // parts, so every task is predicted once, by a calibration that never
        // read it, and no one split's luck decides (`holdout` unused).
        int folds = 1;
        uint64_t seed = 0;
        int resamples = 200; // of the calibration's uncertainty; 0: simulation noise only
        bool replay = true;  // the leave-one-design-out and self replays
        // The simulated prediction's seeds, at least: the experiment's, then
        // more, so that its figures are the simulator's expectation on these
        // tasks rather than one more draw as noisy as the measurement.
        size_t simulatedSeeds = 10;
        // Called before each stage with what it is about to do (for a progress line).
        std::function<void(const std::string&)> progress;
        // Asked before each stage (from the thread running the check): true
        // ends the check there, with no report and the error "cancelled". A
        // stage under way runs to its end (seconds, on the simulated clock).
        std::function<bool()> cancelled;
    };

    static std::optional<FidelityReport> run(Engine& engine, RunQueries& reader,
                                             const std::filesystem::path& resourcesDir,
                                             const std::vector<std::string>& experimentIds, const Options& options,
                                             std::string& error);

    // One prediction against its measurement (the fields of FidelityPrediction).
    static FidelityPrediction compare(const DesignSummary& predicted, const FidelityDesign& measured);
};

} // namespace conclave
