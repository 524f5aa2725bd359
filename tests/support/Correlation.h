#pragma once

// Pearson's r of two equally long series, for tests that check a fitted
// quantity follows a hidden one.
#include <cmath>
#include <vector>

namespace testsupport {

inline double correlation(const std::vector<double>& x, const std::vector<double>& y)
{
    double mx = 0, my = 0;
    for (size_t i = 0; i < x.size(); ++i) {
        mx += x[i] / double(x.size());
        my += y[i] / double(y.size());
    }
    double sxy = 0, sxx = 0, syy = 0;
    for (size_t i = 0; i < x.size(); ++i) {
        sxy += (x[i] - mx) * (y[i] - my);
        sxx += (x[i] - mx) * (x[i] - mx);
        syy += (y[i] - my) * (y[i] - my);
    }
    return sxy / std::sqrt(sxx * syy);
}

} // namespace testsupport
