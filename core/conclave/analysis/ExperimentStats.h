#pragma once

#include "conclave/store/ExperimentRecords.h"

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace conclave {

// A two-sided interval; lo == hi when it has no width, NaN when undefined.
struct Interval {
    double lo = 0;
    double hi = 0;
};

struct Percentiles {
    double p50 = 0;
    double p95 = 0;
};

// How a 95 % interval was computed: what a report's footnote names.
enum class CiMethod {
    None,            // too little data: no interval (one task under several seeds, none scored)
    Wilson,          // one seed: Wilson's score interval over the scored trials
    Clustered,       // several seeds: mean of per-task accuracies ± t · SE clustered by task
    WilsonOverTasks, // several seeds, every task at the same accuracy: Wilson with the T tasks as n
    PairedT,         // Δ: mean of per-task differences ± t · sd / √T
    Newcombe,        // Δ, every task moved by the same amount: Newcombe's paired score interval over T tasks
};

// "wilson", "clustered", "wilson_over_tasks", "paired_t", "newcombe", "none": the JSON names.
std::string_view toString(CiMethod method);

// Whether a difference is established: its 95 % CI lies above 0 (Better),
// below 0 (Worse), or contains 0 or is undefined (NotShown).
enum class Significance { NotShown, Better, Worse };

// A design's accuracy. `accuracy` is always the mean of per-task accuracies
// (each task's correct ÷ scored over its seeds); `correct` ÷ `scored` is the
// pooled rate, the same number when every task has as many scored seeds.
struct AccuracyFigures {
    int64_t trials = 0;  // every trial, scored or not
    int64_t scored = 0;  // trials with a score (a failed trial is scored, and wrong)
    int64_t correct = 0; // scored trials that were right
    int64_t tasks = 0;   // tasks with a scored trial: the T of the clustered CI
    double accuracy = 0;
    Interval ci; // 95 %
    CiMethod ciMethod = CiMethod::None;
};

struct PairedFigures {
    double accuracyDelta = 0;
    Interval accuracyDeltaCi; // 95 %
    CiMethod accuracyDeltaCiMethod = CiMethod::None;
    int64_t tasks = 0;       // tasks both designs scored: the T of Δ
    int64_t wins = 0;        // (task, seed) pairs where this design is right and the baseline wrong
    int64_t losses = 0;      // the other way round
    int64_t ties = 0;        // both right or both wrong
    int64_t regressions = 0; // tasks whose accuracy is below the baseline's
    std::vector<std::string> regressedTasks;
    // The ratios are over the (task, seed) pairs both designs ran, scored or not.
    int64_t pairs = 0;
    std::optional<double> costRatio;    // mean cost over the pairs ÷ the baseline's; unset when the baseline's is 0
    std::optional<double> wallP50Ratio; // p50 wall over the pairs ÷ the baseline's; unset when the baseline's is 0

    Significance significance() const;
};

// One agent of a design, over the design's trials.
struct AgentFigures {
    std::string node;
    double criticalPathShare = 0; // of the design's trials
    double costShare = 0;         // of the design's cost
    int64_t attempts = 0;         // call attempts that finished, over every trial
    Percentiles attemptMs;        // latency of those attempts (0 when it made none)
    double busyMsPerTrial = 0;    // its own execution (node spans, every round) per trial in which it ran
};

struct DesignSummary {
    std::string name;
    AccuracyFigures overall;
    std::map<std::string, AccuracyFigures> byDomain;
    int64_t failed = 0;
    int64_t partial = 0;
    double failureRate = 0;
    double partialRate = 0;
    Percentiles wallMs;
    Percentiles criticalPathMs;
    double meanCostUsd = 0;
    double totalCostUsd = 0;
    double judgeCostUsd = 0;
    double meanTokens = 0;
    double meanCalls = 0;
    bool paretoCost = false;                 // on the accuracy–mean-cost frontier
    bool paretoLatency = false;              // on the accuracy–p95-wall frontier
    std::optional<PairedFigures> vsBaseline; // unset for the baseline itself
    std::vector<AgentFigures> agents;        // in the order agents first appear in its trials
};

struct ExperimentSummary {
    int baseline = 0;
    int seeds = 0; // distinct seeds among the trials
    std::vector<DesignSummary> designs;
};

// Every statistic of an experiment, from its trials (docs/experiments.md has
// the formulas). Designs are named in spec order; trials of a design index
// beyond them are ignored. A failed trial counts as wrong; an unscored one is
// left out of accuracy. With one seed the accuracy CI is Wilson's; with more,
// the mean of per-task accuracies with a task-clustered standard error and a
// t quantile. Paired differences use tasks both designs ran, each task's
// accuracy averaged over its seeds first.
//
// The formulas, with n scored trials, T tasks and a_t a task's accuracy:
// - one seed: Wilson's score interval (E. B. Wilson, "Probable inference, the
//   law of succession, and statistical inference", JASA 22, 1927):
//   (p + z²/2n ± z·√(p(1−p)/n + z²/4n²)) / (1 + z²/n), z = 1.959963984540054;
// - several seeds: mean(a_t) ± t975(T−1)·sd(a_t)/√T, the standard error
//   clustered by task (E. Miller, "Adding Error Bars to Evals", 2024); when
//   every a_t is the same (sd 0) Wilson's interval at p = mean(a_t), n = T;
// - Δ against the baseline: mean(d_t) ± t975(T−1)·sd(d_t)/√T with
//   d_t = a_t − a_t(baseline), a paired t interval, clamped to [−1, 1]; when
//   every d_t is the same (sd 0), Newcombe's hybrid score interval for a
//   paired difference (R. G. Newcombe, "Improved confidence intervals for the
//   difference between binomial proportions based on paired data", Statistics
//   in Medicine 17, 1998, method 10, as in Altman et al., "Statistics with
//   Confidence", 2000): with p1, p2 the two designs' mean accuracies, [l1, u1]
//   and [l2, u2] their Wilson intervals at n = T, and φ their correlation,
//   [Δ − √((p1−l1)² − 2φ(p1−l1)(u2−p2) + (u2−p2)²),
//    Δ + √((u1−p1)² − 2φ(u1−p1)(p2−l2) + (p2−l2)²)];
// - φ = c / √(v1·v2) over the T tasks with c their covariance and v1, v2 their
//   variances (divided by T), c reduced by 1/2T when above it, kept when
//   negative, else 0; 0 when v1 or v2 is 0. On 0/1 accuracies this is the
//   2×2 table's (AD − BC − T/2)/√(efgh) of Newcombe's method;
// - t975: the 0.975 quantile of Student's t, from Boost.Math;
// - percentiles by Quantile::of; a design with no trials is on no frontier.
class ExperimentStats {
public:
    static ExperimentSummary summarize(const std::vector<std::string>& designs, int baseline,
                                       const std::vector<TrialRecord>& trials);

    // The one rule for a trial's outcome: a failed trial is scored, and
    // wrong, whatever its `correct` says; an unscored one counts nowhere.
    static bool scored(const TrialRecord& trial) { return trial.failed() || trial.correct.has_value(); }
    static bool right(const TrialRecord& trial) { return !trial.failed() && trial.correct.value_or(false); }

    // The building blocks, public so they can be tested on their own.
    static Interval wilson(int64_t correct, int64_t trials, double z = 1.959963984540054);
    // The same formula at a proportion that need not be a count over n (a mean of per-task accuracies).
    static Interval wilsonAt(double proportion, int64_t n, double z = 1.959963984540054);
    // The two-sided 95 % t quantile (the 0.975 quantile of Student's t with df degrees of freedom).
    static double t975(int64_t df);
    // The sample standard deviation, √(Σ(v − mean)² / (n − 1)); 0 for fewer than 2 values.
    static double sampleSd(const std::vector<double>& values);
    // The mean of values with a 95 % CI of mean ± t975(n−1)·sd/√n; NaN bounds when n < 2.
    static std::pair<double, Interval> meanWithCi(const std::vector<double>& values);
    // Newcombe's paired interval for mean(a) − mean(b) over tasks paired by index (the formula above);
    // NaN bounds when there are fewer than 2 pairs or the sizes differ.
    static Interval newcombePaired(const std::vector<double>& a, const std::vector<double>& b,
                                   double z = 1.959963984540054);
    // Better when the CI lies above 0, Worse below, else NotShown (NaN bounds included): the one rule
    // the CLI, the Markdown report and the studio colour a Δ by.
    static Significance significance(const Interval& deltaCi);
    // For each point, whether no other point dominates it (higher or equal accuracy at
    // lower or equal cost, one of them strictly): identical points are all on it.
    // Figures within 1e-9 (relative) of each other count as equal.
    static std::vector<bool> paretoFrontier(const std::vector<double>& accuracy, const std::vector<double>& cost);
};

} // namespace conclave
