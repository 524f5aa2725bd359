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

    // An observation known exactly, or only to exceed `value` (right-censored:
    // a call cut off by its timeout was going to take longer).
    struct Observed {
        double value = 0;
        bool censored = false;
    };
    // The quantile p (0..1) of the Kaplan–Meier estimate of the distribution
    // (E. L. Kaplan & P. Meier, "Nonparametric estimation from incomplete
    // observations", JASA 53, 1958): with the distinct exact values
    // t_1 < t_2 < … , d_j of them at t_j and n_j observations (exact or
    // censored) at or above t_j, S(t) = Π_{t_j ≤ t} (1 − d_j / n_j); Q(p) is
    // the smallest t_j with 1 − S(t_j) ≥ p. A censored observation equal to an
    // exact one counts as at risk there. When censoring leaves S above 1 − p
    // after the last exact value, Q(p) is the largest observation (censored: a
    // lower bound). Without censoring it is the empirical quantile's step form
    // (the smallest value whose share at or below it reaches p). 0 when empty.
    static double ofCensored(std::vector<Observed> observations, double p);
    // The Kaplan–Meier estimate's steps, ascending: each distinct exact value
    // t_j with 1 − S(t_j). The last step's share is the most the observations
    // say; censoring may leave it below 1.
    struct Step {
        double value = 0;
        double share = 0;
    };
    static std::vector<Step> kaplanMeier(std::vector<Observed> observations);
};

} // namespace conclave
