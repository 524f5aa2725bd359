#pragma once

#include "conclave/analysis/ExperimentStats.h"
#include "conclave/experiment/CalibrationUncertainty.h"

#include <optional>
#include <string>
#include <vector>

namespace conclave {

// How an experiment's figures are written, one way for every reader: the
// CLI's table, the Markdown report and the studio's experiment view.
struct ReportText {
    // printf of one number ("%.1f").
    static std::string fixed(const char* pattern, double value);
    // "72.0%"; "n/a" when not finite.
    static std::string percent(double fraction);
    // "[60.1, 81.5]" in percentage points; "n/a" when a bound is not finite.
    static std::string ciText(const Interval& ci);
    // "+4.0 pt".
    static std::string signedPoints(double delta);
    // "850 ms", "1.25 s", "12.5 s".
    static std::string duration(double ms);
    // "1.25x"; "n/a" when unset.
    static std::string ratio(const std::optional<double>& value);
    // Δ against the baseline with its CI ("+4.0 pt [-2.1, 10.1]"), followed by "better" or "worse"
    // when the CI excludes 0 (ExperimentStats::significance); "baseline" for the baseline.
    static std::string delta(const DesignSummary& design);
    // How an interval was computed, for a footnote: "Wilson score interval", ….
    static std::string ciMethod(CiMethod method);
    // Wins/losses/ties against the baseline ("3/1/16"); "-" for the baseline.
    static std::string wins(const DesignSummary& design);
    // "predicted from calibration of experiment e-1 (1,224 answers); calibration
    // uncertainty: 200 resamples (simulation noise alone [70.1, 80.2]); 12 of 60
    // tasks have no measured difficulty", or "…; CI: simulation noise only".
    static std::string prediction(const DesignPrediction& prediction);
    // Rows as a terminal table: columns padded to their widest cell, the first left-aligned, the rest right.
    static std::string aligned(const std::vector<std::vector<std::string>>& rows);
};

} // namespace conclave
