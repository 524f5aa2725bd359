#include "conclave/analysis/Quantile.h"

#include <algorithm>
#include <cmath>

namespace conclave {

double Quantile::of(const std::vector<double>& sorted, double p)
{
    if (sorted.empty())
        return 0;
    const double h = double(sorted.size() - 1) * p;
    const auto lo = size_t(std::floor(h));
    const auto hi = std::min(lo + 1, sorted.size() - 1);
    return sorted[lo] + (h - double(lo)) * (sorted[hi] - sorted[lo]);
}

double Quantile::median(std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    return of(values, 0.5);
}

std::vector<Quantile::Step> Quantile::kaplanMeier(std::vector<Observed> observations)
{
    // Exact before censored at one value: a call censored at t was still running at t.
    std::sort(observations.begin(), observations.end(), [](const Observed& a, const Observed& b) {
        return a.value < b.value || (a.value == b.value && !a.censored && b.censored);
    });
    std::vector<Step> steps;
    double survival = 1;
    size_t atRisk = observations.size();
    for (size_t i = 0; i < observations.size();) {
        size_t j = i;
        size_t events = 0;
        while (j < observations.size() && observations[j].value == observations[i].value) {
            events += observations[j].censored ? 0 : 1;
            ++j;
        }
        if (events > 0) {
            survival *= 1 - double(events) / double(atRisk);
            steps.push_back({observations[i].value, 1 - survival});
        }
        atRisk -= j - i;
        i = j;
    }
    return steps;
}

double Quantile::ofCensored(std::vector<Observed> observations, double p)
{
    if (observations.empty())
        return 0;
    double largest = 0;
    for (const auto& o : observations)
        largest = std::max(largest, o.value);
    for (const auto& step : kaplanMeier(std::move(observations)))
        if (step.share >= p - 1e-12)
            return step.value;
    return largest;
}

} // namespace conclave
