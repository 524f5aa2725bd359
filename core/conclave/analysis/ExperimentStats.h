#pragma once

#include "conclave/store/ExperimentRecords.h"

#include <map>
#include <optional>
#include <string>
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

struct AccuracyFigures {
    int64_t trials = 0;
    int64_t correct = 0;
    double accuracy = 0;
    Interval ci; // 95 %
};

struct PairedFigures {
    double accuracyDelta = 0;
    Interval accuracyDeltaCi; // 95 %
    int64_t wins = 0;         // (task, seed) pairs where this design is right and the baseline wrong
    int64_t losses = 0;       // the other way round
    int64_t ties = 0;         // both right or both wrong
    int64_t regressions = 0;  // tasks whose accuracy is below the baseline's
    std::vector<std::string> regressedTasks;
    std::optional<double> costRatio;    // mean cost ÷ the baseline's; unset when the baseline's is 0
    std::optional<double> wallP50Ratio; // p50 wall ÷ the baseline's; unset when the baseline's is 0
};

struct AgentFigures {
    std::string node;
    double criticalPathShare = 0; // of the design's trials
    double costShare = 0;         // of the design's cost
    Percentiles wallMs;           // over the trials in which the agent ran
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
//   clustered by task (the task, not the trial, is the independent unit);
// - Δ against the baseline: mean(d_t) ± t975(T−1)·sd(d_t)/√T with
//   d_t = a_t − a_t(baseline), a paired t interval, clamped to [−1, 1];
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
    // The mean of values with a 95 % CI of mean ± t975(n−1)·sd/√n; NaN bounds when n < 2.
    static std::pair<double, Interval> meanWithCi(const std::vector<double>& values);
    // For each point, whether no other point dominates it (higher or equal accuracy at
    // lower or equal cost, one of them strictly): identical points are all on it.
    // Figures within 1e-9 (relative) of each other count as equal.
    static std::vector<bool> paretoFrontier(const std::vector<double>& accuracy, const std::vector<double>& cost);
};

} // namespace conclave
