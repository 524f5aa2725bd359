#include "conclave/analysis/PairedComparison.h"

#include "conclave/analysis/Quantile.h"
#include "conclave/engine/DeterministicRandom.h"

#include <boost/math/distributions/normal.hpp>
#include <boost/math/distributions/students_t.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

namespace conclave {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

double statisticOf(std::vector<double>& values, PairedComparison::Statistic statistic)
{
    if (values.empty())
        return 0;
    if (statistic == PairedComparison::Statistic::Mean) {
        double sum = 0;
        for (const double v : values)
            sum += v;
        return sum / double(values.size());
    }
    // Quantile::of's definition (Hyndman & Fan's 7) on the two order statistics it reads, found in linear time.
    const double p = statistic == PairedComparison::Statistic::P50 ? 0.5 : 0.95;
    const double h = double(values.size() - 1) * p;
    const auto low = size_t(h);
    std::nth_element(values.begin(), values.begin() + std::ptrdiff_t(low), values.end());
    const double lower = values[low];
    if (low + 1 >= values.size())
        return lower;
    const double upper = *std::min_element(values.begin() + std::ptrdiff_t(low) + 1, values.end());
    return lower + (h - double(low)) * (upper - lower);
}

double ratioOf(double a, double b)
{
    if (b == 0)
        return a == 0 ? 1 : std::numeric_limits<double>::infinity();
    return a / b;
}

} // namespace

double PairedComparison::tQuantile(double level, int64_t df)
{
    if (df <= 0 || !(level > 0 && level < 1))
        return kNaN;
    return boost::math::quantile(boost::math::students_t_distribution<double>(double(df)), 1 - (1 - level) / 2);
}

double PairedComparison::zQuantile(double level)
{
    if (!(level > 0 && level < 1))
        return kNaN;
    return boost::math::quantile(boost::math::normal_distribution<double>(), 1 - (1 - level) / 2);
}

Interval PairedComparison::accuracyDelta(const std::vector<double>& a, const std::vector<double>& b, double level)
{
    if (a.size() != b.size() || a.size() < 2)
        return {kNaN, kNaN};
    std::vector<double> d(a.size());
    for (size_t i = 0; i < a.size(); ++i)
        d[i] = a[i] - b[i];
    const bool allEqual = std::all_of(d.begin(), d.end(), [&](double v) { return v == d.front(); });
    if (allEqual)
        return ExperimentStats::newcombePaired(a, b, zQuantile(level));
    double sum = 0;
    for (const double v : d)
        sum += v;
    const auto n = int64_t(d.size());
    const double mean = sum / double(n);
    const double half = tQuantile(level, n - 1) * ExperimentStats::sampleSd(d) / std::sqrt(double(n));
    return {std::max(-1.0, mean - half), std::min(1.0, mean + half)};
}

double PairedComparison::ratio(const std::vector<std::vector<double>>& a, const std::vector<std::vector<double>>& b,
                               Statistic statistic)
{
    std::vector<double> all;
    for (const auto& task : a)
        all.insert(all.end(), task.begin(), task.end());
    const double top = statisticOf(all, statistic);
    all.clear();
    for (const auto& task : b)
        all.insert(all.end(), task.begin(), task.end());
    return ratioOf(top, statisticOf(all, statistic));
}

Interval PairedComparison::ratioInterval(const std::vector<std::vector<double>>& a,
                                         const std::vector<std::vector<double>>& b, Statistic statistic, double level,
                                         int resamples, uint64_t seed)
{
    const size_t tasks = a.size();
    if (tasks != b.size() || tasks < 2 || resamples < 1 || !(level > 0 && level < 1))
        return {kNaN, kNaN};
    // A mean needs each task's sum and count alone; a quantile, every observation (buffers kept across resamples).
    std::vector<double> sumA(tasks, 0);
    std::vector<double> sumB(tasks, 0);
    std::vector<double> countA(tasks, 0);
    std::vector<double> countB(tasks, 0);
    for (size_t t = 0; t < tasks; ++t) {
        for (const double v : a[t])
            sumA[t] += v;
        for (const double v : b[t])
            sumB[t] += v;
        countA[t] = double(a[t].size());
        countB[t] = double(b[t].size());
    }
    std::vector<double> ratios;
    ratios.reserve(size_t(resamples));
    std::vector<double> top;
    std::vector<double> bottom;
    uint64_t state = DeterministicRandom::mix(seed);
    for (int r = 0; r < resamples; ++r) {
        double above = 0;
        double below = 0;
        if (statistic == Statistic::Mean) {
            double na = 0;
            double nb = 0;
            for (size_t i = 0; i < tasks; ++i) {
                state = DeterministicRandom::mix(state);
                const size_t t = size_t(state % tasks);
                above += sumA[t];
                below += sumB[t];
                na += countA[t];
                nb += countB[t];
            }
            above = na > 0 ? above / na : 0;
            below = nb > 0 ? below / nb : 0;
        } else {
            top.clear();
            bottom.clear();
            for (size_t i = 0; i < tasks; ++i) {
                state = DeterministicRandom::mix(state);
                const size_t t = size_t(state % tasks);
                top.insert(top.end(), a[t].begin(), a[t].end());
                bottom.insert(bottom.end(), b[t].begin(), b[t].end());
            }
            above = statisticOf(top, statistic);
            below = statisticOf(bottom, statistic);
        }
        if (below == 0 && above != 0)
            continue;
        ratios.push_back(ratioOf(above, below));
    }
    if (ratios.size() * 2 < size_t(resamples))
        return {kNaN, kNaN};
    std::sort(ratios.begin(), ratios.end());
    const double tail = (1 - level) / 2;
    return {Quantile::of(ratios, tail), Quantile::of(ratios, 1 - tail)};
}

} // namespace conclave
