#pragma once

#include "conclave/analysis/ExperimentStats.h"
#include "conclave/experiment/CalibrationUncertainty.h"
#include "conclave/engine/RunClock.h"
#include "conclave/experiment/ExperimentSpec.h"
#include "conclave/experiment/Provenance.h"
#include "conclave/experiment/SweepCurve.h"
#include "conclave/store/ExperimentRecords.h"

#include <nlohmann/json.hpp>

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace conclave {

class RunQueries;

// A stored experiment with everything computed from it: what the CLI
// prints and exports, and what the studio will draw.
struct ExperimentReport {
    ExperimentRecord record;
    StoredSpec spec;
    std::vector<TrialRecord> trials;
    ExperimentSummary summary;
    std::vector<ClockKind> clocks;       // per design: the clock its trials run on
    std::vector<Provenance> provenances; // per design: where its answers come from
    std::optional<Provenance> judge;     // the judge's, when the experiment has one
    Provenance provenance;               // the experiment's: over every design's calls and the judge's
    // Per design, when predictions were made (setPredictions): what a calibrated
    // design was predicted from and with what uncertainty; unset for the rest.
    std::vector<std::optional<DesignPrediction>> predictions;
    // When designs are variants of one router or cascade field: their quality–cost
    // curve against the single-model designs (SweepCurve); unset for any other experiment.
    std::optional<SweepCurve> curve;

    // Keeps the predictions, and shows each calibrated design's accuracy CI as
    // the prediction's (both sources of uncertainty) everywhere it is written.
    void setPredictions(std::vector<std::optional<DesignPrediction>> made);

    // The experiment an id (or a unique prefix of one) names, read in one go.
    static std::optional<ExperimentReport> load(RunQueries& reader, const std::string& idOrPrefix, std::string& error);
    // From parts already at hand (a run just finished).
    static std::optional<ExperimentReport> make(ExperimentRecord record, std::vector<TrialRecord> trials,
                                                std::string& error);

    // The `eval --json` / `experiments export --format json` object.
    nlohmann::ordered_json json() const;
    // One row per trial: design, task, domain, seed, run_id, status, answer,
    // expected, correct, wall_ms, critical_path_ms, cost_usd, tokens, calls.
    std::string csv() const;
    // GitHub-flavoured Markdown, for a pull request comment.
    std::string markdown() const;
    // The terminal summary: one aligned row per design, then what it means.
    std::string table() const;
    // What the CIs were computed with, each method with the designs it was used for:
    // "Accuracy CIs: …. Δ: …." (the Markdown footnote; the table's last lines).
    std::string ciMethods() const;
    // The report as an export format: "json" (json(), indented), "csv" or
    // "md"; unset for any other format.
    std::optional<std::string> text(std::string_view format) const;
};

} // namespace conclave
