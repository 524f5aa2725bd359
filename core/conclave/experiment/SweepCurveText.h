#pragma once

#include "conclave/analysis/CurveBootstrap.h"
#include "conclave/experiment/SweepCurve.h"

#include <nlohmann/json.hpp>

#include <string>

namespace conclave {

// How a sweep's curve is written, one way for every reader: the CLI's
// table, the Markdown report, --json and the studio's experiment view.
struct SweepCurveText {
    // "0.742 [0.712, 0.771]"; "undefined" when the figure has no value.
    static std::string figure(const BootstrapFigure& figure, int decimals = 3);
    // "24.0 %", "not reached" or "undefined".
    static std::string threshold(const CallThreshold& threshold);
    // "24.0 % [16.0 %, not reached]".
    static std::string threshold(const BootstrapThreshold& threshold);
    // What the curve is over: "held out: 120 tasks (30 a router or scorer file was trained on left out),
    // 2,000 bootstrap resamples over tasks, simulated".
    static std::string basis(const SweepCurve& curve);
    // What a series is: "router (route.threshold): strong_weak router, a (weak) and b (strong)".
    static std::string series(const SweepCurve::Series& series);
    // One series' figures on one line: "AIQ 0.742 [0.712, 0.771] · APGR … · CPT(50%) … · CPT(80%) …".
    static std::string figures(const CurveFigures& figures);
    // The terminal section: a heading, per series its figures and one aligned row
    // per variant (value, cost/trial, quality with its CI, strong share), the
    // references and the notes.
    static std::string table(const SweepCurve& curve);
    static std::string markdown(const SweepCurve& curve);
    static nlohmann::ordered_json json(const SweepCurve& curve);
};

} // namespace conclave
