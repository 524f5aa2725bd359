#pragma once

#include "conclave/local/ItemBank.h"

#include <cmath>
#include <numbers>

namespace conclave {

// The standard normal pieces a probit likelihood needs, stable in the far
// tails where Φ underflows: the density φ, log Φ and the inverse Mills ratio
// λ(x) = φ(x)/Φ(x) (the derivative of log Φ). Φ and Φ⁻¹ are ItemBank's, the
// simulator's own.
namespace NormalOgive {

inline double density(double x)
{
    return std::exp(-0.5 * x * x) / std::sqrt(2 * std::numbers::pi);
}

inline double cdf(double x)
{
    return ItemBank::normalCdf(x);
}

inline double quantile(double p)
{
    return ItemBank::normalQuantile(p);
}

// Below −35, Φ(x) = φ(x)/(−x)·(1 − 1/x² + 3/x⁴ − …): its asymptotic series.
inline double logCdf(double x)
{
    if (x > -35)
        return std::log(cdf(x));
    const double r = 1 / (x * x);
    return -0.5 * x * x - std::log(std::sqrt(2 * std::numbers::pi)) - std::log(-x) + std::log1p(-r + 3 * r * r);
}

inline double mills(double x)
{
    if (x > -35)
        return density(x) / cdf(x);
    const double r = 1 / (x * x);
    return -x / (1 - r + 3 * r * r);
}

} // namespace NormalOgive

} // namespace conclave
