#pragma once

#include "conclave/analysis/ExperimentStats.h"

#include <optional>
#include <string>
#include <vector>

namespace conclave {

// The gates a CI job puts on an experiment (`eval --min-accuracy`,
// `--max-regressions`), checked by one rule whoever asks:
// - min accuracy: every design but the baseline has an accuracy of at least
//   minAccuracy (the point estimate, AccuracyFigures::accuracy; a NaN fails);
// - max regressions: no design has more than maxRegressions tasks below the
//   baseline (PairedFigures::regressions).
struct ExperimentGates {
    std::optional<double> minAccuracy;
    std::optional<int> maxRegressions;

    // One line per gate a design does not meet, in design order, e.g.
    // "triage has accuracy 0.6000, below --min-accuracy 0.7000"; empty when every gate is met.
    std::vector<std::string> failures(const ExperimentSummary& summary) const;
};

} // namespace conclave
