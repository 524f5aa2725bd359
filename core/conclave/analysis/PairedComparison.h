#pragma once

#include "conclave/analysis/ExperimentStats.h"

#include <cstdint>
#include <vector>

namespace conclave {

// Two designs compared on the same tasks at any confidence level: what a
// design search drops a candidate by (docs/search.md). Values come per task,
// each task holding its (seed) observations, so that tasks are the unit that
// is resampled: the figures of one task under several seeds are not
// independent.
//
// - Δ accuracy: mean(d_t) ± t(1 − α/2; T−1)·sd(d_t)/√T, d_t = a_t − b_t the
//   difference of the two designs' accuracies on task t (a paired t interval,
//   clamped to [−1, 1]); when every d_t is the same, Newcombe's paired score
//   interval at z(1 − α/2) (ExperimentStats::newcombePaired).
// - a ratio (cost, wall time, calls, tokens): stat(a) / stat(b) with stat the
//   mean or a quantile (Quantile::of) of every observation of the tasks, and a
//   percentile bootstrap over tasks (B. Efron & R. Tibshirani, "An
//   Introduction to the Bootstrap", 1993, ch. 13): `resamples` draws of T
//   tasks with replacement, the same draw for both designs (they are paired),
//   the interval the α/2 and 1 − α/2 quantiles of the resampled ratios. A
//   resample whose denominator is 0 is left out; the interval is undefined
//   (NaN) when more than half are.
class PairedComparison {
public:
    enum class Statistic { Mean, P50, P95 };

    // The two-sided t quantile at `level` (0.95: the 0.975 quantile of Student's t, df degrees of freedom).
    static double tQuantile(double level, int64_t df);
    // The two-sided normal quantile at `level` (0.95: 1.959963984540054).
    static double zQuantile(double level);

    // Per-task accuracies of two designs, paired by index; NaN bounds with fewer than 2 tasks.
    static Interval accuracyDelta(const std::vector<double>& a, const std::vector<double>& b, double level);

    // stat(every observation of a) ÷ the same of b; 0 ÷ 0 is 1, x ÷ 0 is +∞.
    static double ratio(const std::vector<std::vector<double>>& a, const std::vector<std::vector<double>>& b,
                        Statistic statistic);
    // Its bootstrap interval at `level` (the draws seeded by `seed`, so a comparison is repeatable).
    static Interval ratioInterval(const std::vector<std::vector<double>>& a,
                                  const std::vector<std::vector<double>>& b, Statistic statistic, double level,
                                  int resamples, uint64_t seed);
};

} // namespace conclave
