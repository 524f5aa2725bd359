#pragma once

#include <vector>

namespace conclave {

// A sample quantile by linear interpolation between order statistics: with
// the n values sorted as x[0] ≤ … ≤ x[n−1] and h = (n − 1)·p,
//     Q(p) = x[⌊h⌋] + (h − ⌊h⌋) · (x[⌊h⌋ + 1] − x[⌊h⌋])
// (x[n] read as x[n−1]). This is definition 7 of Hyndman & Fan, "Sample
// Quantiles in Statistical Packages" (The American Statistician 50(4), 1996):
// R's default and NumPy's "linear". Q(0) is the minimum, Q(1) the maximum.
class Quantile {
public:
    // The quantile p (0..1) of values already sorted ascending; 0 when there are none.
    static double of(const std::vector<double>& sorted, double p);
    // Q(0.5) of values in any order: the middle one, or the mean of the two middle ones.
    static double median(std::vector<double> values);
};

} // namespace conclave
