#pragma once

#include "CliContext.h"

#include "conclave/analysis/ExperimentGates.h"

#include <optional>
#include <string>

namespace conclave {
class Engine;
class RunStore;
struct ExperimentSpec;
} // namespace conclave

namespace conclave::cli {

// CI gates on an experiment (core's rule): exit 1 when one is not met.
using EvalGates = ExperimentGates;

// Calibrated designs' predictions (CalibrationUncertainty): made when an
// engine is given, from `spec` (else the stored experiment's, reloaded).
struct PredictionOptions {
    Engine* engine = nullptr;
    const ExperimentSpec* spec = nullptr;
    int resamples = 200; // 0: --no-calibration-uncertainty
};

// Prints a stored experiment as `eval` does (the summary table, or JSON with
// `json`), writes it to `output` when given (.md, .json or .csv by its
// extension) and checks the gates. 0 when finished and every gate is met;
// 1 when a gate is not met or the experiment did not finish; 2 on bad input.
int printExperiment(const CliContext& context, RunStore& store, const std::string& id, bool json,
                    const std::string& output, const EvalGates& gates, bool finished,
                    const PredictionOptions& predictions = {});

} // namespace conclave::cli
