#pragma once

#include "conclave/analysis/ExperimentStats.h"
#include "conclave/analysis/QualityCostCurve.h"
#include "conclave/analysis/RoutingGain.h"

#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace conclave {

// One design over an experiment's tasks, tasks aligned by index across every
// design of the experiment (paired): per task, its mean quality over the
// task's seeds (0..1), its mean cost per trial (USD) and, for a variant of a
// two-model router or cascade, its share of calls to the strong model (of a
// cascade: its share of trials that escalated to the second member), 0..1.
struct TaskFigures {
    std::vector<double> quality;
    std::vector<double> costUsd;
    std::vector<double> strongShare; // empty for a single model or a router among more than two models
};

// A router or cascade judged on its curve: one TaskFigures per variant (the
// values of the one parameter the variants differ in). For a strong_weak
// router or a two-member cascade, `weak` and `strong` name its two models among
// the references; their quality on the resampled tasks is PGR's q_w and q_s.
struct CurveInput {
    std::string name;
    std::vector<TaskFigures> variants;
    std::optional<size_t> weak;
    std::optional<size_t> strong;
};

struct CurveBootstrapInput {
    std::vector<TaskFigures> references; // the single models: the axis and the reference points
    std::vector<CurveInput> curves;
};

// A figure on all tasks with its percentile interval over the resamples that defined it.
struct BootstrapFigure {
    std::optional<double> value;             // unset when undefined on all tasks
    Interval ci{std::nan(""), std::nan("")}; // NaN bounds when no resample defined it
    int undefinedResamples = 0;
};

// CPT with its interval: a bound is NotReached when the resamples at its rank did not reach x.
struct BootstrapThreshold {
    CallThreshold value;
    CallThreshold lo; // Undefined when no resample defined it
    CallThreshold hi;
    int undefinedResamples = 0; // resamples without a gap (q_s = q_w)
};

struct GainFigures {
    BootstrapFigure apgr;
    BootstrapThreshold cpt50;
    BootstrapThreshold cpt80;
};

struct CurveFigures {
    std::string name;
    std::vector<CurvePoint> points;  // each variant's (mean cost, mean quality), in input order
    std::vector<Interval> qualityCi; // each variant's quality over the same resamples (a point's CI band)
    std::vector<double> shares;      // each variant's mean strong-call share; empty without weak and strong
    std::vector<CurvePoint> hull;    // the non-decreasing convex hull of `points`
    BootstrapFigure aiq;             // undefined resamples: the axis had no length
    std::optional<GainFigures> gain; // set for a curve with weak and strong
};

struct CurveReport {
    int resamples = 0;
    uint64_t seed = 0;
    std::vector<CurvePoint> references; // each single model's (mean cost, mean quality)
    std::vector<Interval> referenceQualityCi;
    CostAxis axis;
    std::vector<CurveFigures> curves;
};

// The 95 % intervals of the curve figures (QualityCostCurve's AIQ,
// RoutingGain's APGR and CPT(50 %), CPT(80 %)): a percentile bootstrap over
// tasks (B. Efron & R. J. Tibshirani, "An Introduction to the Bootstrap",
// 1993, ch. 13). Resample r (1…R) draws T tasks with replacement — task
// ⌊u · T⌋ with u = DeterministicRandom::unit(key(["curve-bootstrap", r], seed), i)
// for draw i — and recomputes every figure from those tasks: each point's
// mean cost, quality and share, the axis, q_w and q_s (the same draws for
// every design, so the pairing by task is kept). A figure's interval is
// [Q(0.025), Q(0.975)] of its resampled values by Quantile::of. A resample
// where a figure is undefined (q_s = q_w, or an axis without length) is left
// out of that figure's interval and counted. For CPT a resample that did not
// reach x sorts above every share (as the value 2); a bound that lands above
// 1 is NotReached.
class CurveBootstrap {
public:
    struct Options {
        int resamples = 2000;
        uint64_t seed = 1;
    };

    // Unset, with `error`, when the input is inconsistent (no references, no
    // tasks, a series of another length, a value out of range, weak or strong
    // naming no reference, a curve with weak and strong but a variant without shares).
    static std::optional<CurveReport> compute(const CurveBootstrapInput& input, const Options& options,
                                              std::string& error);
};

} // namespace conclave
