#pragma once

#include "conclave/analysis/ExperimentStats.h"
#include "conclave/experiment/ExperimentSpec.h"
#include "conclave/io/ModelsFile.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace conclave {

class Engine;
class RunQueries;

// What a simulated design's prediction stands on: the calibration its
// simulated models came from (profiles carrying `calibrated_from`).
struct CalibrationBasis {
    std::vector<CalibrationSource> sources; // by experiment, in first-seen order: the calibrated models' answers summed
    std::vector<std::string> models;        // the calibrated models it simulates, sorted
    int64_t answers() const;
    // "experiments e-1, e-2 (1,224 answers)": what reports say it was predicted from.
    std::string text() const;
};

// A calibrated design's accuracy with the calibration's uncertainty carried:
// its simulated accuracy CI widened by how much the accuracy moves when the
// fitted skills are drawn again from their own uncertainty.
struct DesignPrediction {
    CalibrationBasis basis;
    int resamples = 0;      // 0: simulation noise only
    Interval simulationCi;  // the simulated draws alone (the experiment's own CI)
    Interval ci;            // both; == simulationCi when resamples is 0
    double resampleSd = 0;  // sd of the resamples' accuracies (n − 1)
    int64_t tasks = 0;      // tasks the design was scored on
    int64_t unmeasuredTasks = 0; // of them, tasks no calibrated experiment answered (no measured difficulty)
};

// docs/calibration.md, "Honest predictions". A calibrated model's skill per
// domain s with the 95 % interval [lo, hi] it was fitted with (skills_ci) is
// read on the probit scale: a = Φ⁻¹(s), se = (Φ⁻¹(hi) − Φ⁻¹(lo)) / (2 · 1.96).
// Resample r draws a_r = a + se · N(0, 1) (DeterministicRandom, keyed by
// model, domain and r, so a prediction is repeatable) and sets s_r = Φ(a_r)
// inline in every local-moe backend that simulates the model. Each resample
// evaluates every (task, seed) trial of the design, in memory
// (TrialSummaries), with the experiment's seeds: common random numbers, so
// the resamples differ only by the drawn parameters. With A the design's
// accuracy, [A − l, A + u] its simulated CI and sd the resamples' standard
// deviation, the prediction's CI is
//   [A − √(l² + (1.96·sd)²), A + √(u² + (1.96·sd)²)], clamped to [0, 1]
// (the two variances add: simulation noise given the parameters, and the
// parameters' own). Skills are what is resampled; the other fitted fields
// (weights, agreement, confidence, latency) keep their fitted values.
class CalibrationUncertainty {
public:
    static constexpr int kResamples = 200;
    static constexpr double kZ = 1.959963984540054;

    // Every simulated backend's profiles of a design, resolved as its runs
    // resolve them (catalog, models_file, inline), by backend; unset, with
    // `error`, when a models file cannot be read.
    using Resolved = std::map<BackendName, ModelsFile::Profiles>;
    static std::optional<Resolved> resolve(const ExperimentDesign& design, const ModelsFile::Profiles& catalog,
                                           std::string& error);
    // The calibration behind them; unset when no profile carries calibrated_from.
    static std::optional<CalibrationBasis> basis(const Resolved& resolved);
    // Resample r (from 1) of a team: its calibrated models' skills drawn as above, inline.
    static Team resample(const Team& team, const Resolved& resolved, int r, uint64_t seed);

    // The combined interval above.
    static Interval combine(double accuracy, const Interval& simulation, double resampleSd);

    // Predictions for every calibrated design of `spec` (unset for the
    // rest), `resamples` each (0: simulation noise only), its accuracy and
    // simulated CI from `summary`. The resamples run on `engine`, on the
    // simulated clock; `reader` tells which tasks the calibrated experiments
    // answered (null: not counted). Unset, with `error`, when one cannot be made.
    static std::optional<std::vector<std::optional<DesignPrediction>>>
    predict(Engine& engine, const ExperimentSpec& spec, const ExperimentSummary& summary, RunQueries* reader,
            int resamples, std::string& error);
};

} // namespace conclave
