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

} // namespace conclave
