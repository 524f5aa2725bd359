#pragma once

#include "conclave/analysis/ExperimentStats.h"
#include "conclave/analysis/RankAgreement.h"
#include "conclave/experiment/CalibrationUncertainty.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace conclave {

// One prediction of a measured design on the held-out tasks, against its measurement.
struct FidelityPrediction {
    AccuracyFigures accuracy; // ci: the prediction's (with the calibration's uncertainty when resampled)
    double z = 0;             // (predicted − measured) / √(se_p² + se_m²), se = the CI's half-width / 1.96
    bool within = false;      // |predicted − measured| ≤ 1.96 · √(se_p² + se_m²)
    std::optional<double> costRatio;  // mean cost per trial, predicted ÷ measured (unset when measured is 0)
    std::optional<double> p50Ratio;   // p50 wall, predicted ÷ measured
    std::optional<double> p95Ratio;   // p95 wall, predicted ÷ measured
    double meanCostUsd = 0;
    Percentiles wallMs;
};

struct FidelityDesign {
    std::string name;       // as measured ("NAME (e-…)" when two experiments have one name)
    std::string experiment; // the experiment it was measured in
    bool combines = false;  // it calls more than one model, or one model more than once, per trial
    AccuracyFigures measured;
    double measuredCostUsd = 0;
    Percentiles measuredWallMs;
    std::optional<FidelityPrediction> simulated; // unset with `why` when it has no simulated twin
    std::optional<FidelityPrediction> replayed;  // from the other designs' recorded calls only
    std::optional<FidelityPrediction> selfReplay; // from its own recorded calls only: the reproduction check
    std::string why; // why a prediction is missing
};

// What `conclave fidelity` prints (docs/fidelity.md tells how to read it).
struct FidelityReport {
    std::vector<std::string> experiments;
    double holdout = 0.5;         // the predicted share (1 / folds with folds)
    int folds = 1;                // 1: one split; K ≥ 2: K-fold cross-fitting
    uint64_t seed = 0;
    int64_t calibrationTasks = 0; // tasks of part 0: what the calibration read (every task with folds)
    int64_t heldOutTasks = 0;     // tasks of part 1: what is predicted and compared (every task with folds)
    int64_t answers = 0;          // scored answers the calibration read (summed over the folds)
    int resamples = 0;
    size_t simulatedSeeds = 0; // the seeds each held-out task was simulated under
    std::vector<std::string> notMeasured; // "MODEL: field, field": defaults the calibration kept
    std::vector<FidelityDesign> designs;
    RankAgreement simulatedOrder; // over designs with a simulated prediction
    RankAgreement replayedOrder;
    // Set when no measured design combines calls: "only single-model designs
    // were measured: this checks skills, not how models combine".
    std::string limitation;

    // Of the designs with a simulated prediction, how many are within: (within, predicted).
    std::pair<int64_t, int64_t> within() const;

    // The pieces table() is made of, for every reader that lays them out
    // otherwise (the studio's fidelity view): one text, one home.
    enum Column { Design, Measured, Simulated, SimulatedZ, CostRatio, P50Ratio, P95Ratio, Replayed, ReplayedZ,
                  SelfReplay, ColumnCount };
    // "fidelity of the local-moe SIMULATOR against e-1: " then basis() (no newline).
    std::string title() const;
    // "calibrated on 30 tasks (1,224 answers), predicted on 30 held-out tasks (--holdout 0.5, seed 0)", or with
    // folds "2-fold cross-fit: each of 2 parts of 60 tasks predicted from a calibration on the others (2,448
    // answers read in all; --folds 2, seed 0)".
    std::string basis() const;
    // The table's header row and a design's row ("-" where a prediction is missing), ColumnCount cells each.
    static std::vector<std::string> columns();
    static std::vector<std::string> cells(const FidelityDesign& design);
    // The lines below the table: what the ratios and z are, the within count,
    // the orders (Kendall's tau-b) and the calibration's uncertainty.
    std::vector<std::string> summaryLines() const;
    // Then the designs not predicted (with why) and the defaults the calibration kept.
    std::vector<std::string> noteLines() const;

    nlohmann::ordered_json json() const;
    std::string table() const;    // the terminal report
    std::string markdown() const; // -o report.md
};

} // namespace conclave
