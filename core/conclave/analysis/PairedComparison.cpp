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
    std::sort(values.begin(), values.end());
    return Quantile::of(values, statistic == PairedComparison::Statistic::P50 ? 0.5 : 0.95);
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
    std::vector<double> ratios;
    ratios.reserve(size_t(resamples));
    std::vector<double> top;
    std::vector<double> bottom;
    uint64_t state = DeterministicRandom::mix(seed);
    for (int r = 0; r < resamples; ++r) {
        top.clear();
        bottom.clear();
        for (size_t i = 0; i < tasks; ++i) {
            state = DeterministicRandom::mix(state);
            const size_t t = size_t(state % tasks);
            top.insert(top.end(), a[t].begin(), a[t].end());
            bottom.insert(bottom.end(), b[t].begin(), b[t].end());
        }
        const double above = statisticOf(top, statistic);
        const double below = statisticOf(bottom, statistic);
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
