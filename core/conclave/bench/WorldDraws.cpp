#include "conclave/bench/WorldDraws.h"

#include "conclave/engine/DeterministicRandom.h"

#include <algorithm>
#include <cmath>

namespace conclave {

using R = DeterministicRandom;

double WorldDraws::logLogistic(double median, double shape, double u)
{
    const double v = std::clamp(u, 0.005, 0.995);
    return median * std::pow(v / (1 - v), 1 / shape);
}

double WorldDraws::gamma(double alpha, uint64_t key, uint64_t stream)
{
    if (alpha < 1) {
        const double u = std::max(R::unit(key, stream), 1e-300);
        return gamma(alpha + 1, key, stream + 1) * std::pow(u, 1 / alpha);
    }
    const double d = alpha - 1.0 / 3.0;
    const double c = 1 / std::sqrt(9 * d);
    // Each try takes two streams; 64 tries fail together with a chance far
    // below 1e-30, and then the mode stands in.
    for (uint64_t t = 0; t < 64; ++t) {
        const double x = R::normal(key, stream + 1000 + 2 * t);
        const double v = std::pow(1 + c * x, 3);
        if (v <= 0)
            continue;
        const double u = R::unit(key, stream + 1001 + 2 * t);
        if (std::log(std::max(u, 1e-300)) < 0.5 * x * x + d - d * v + d * std::log(v))
            return d * v;
    }
    return d;
}

std::vector<double> WorldDraws::dirichlet(double alpha, size_t k, uint64_t key)
{
    std::vector<double> weights(k);
    double total = 0;
    for (size_t i = 0; i < k; ++i) {
        weights[i] = gamma(alpha, R::mix(key ^ R::mix(i + 1)), 0);
        total += weights[i];
    }
    for (auto& w : weights)
        w = total > 0 ? w / total : 1.0 / double(k);
    return weights;
}

double WorldDraws::confidence(bool right, double kappa, double floor, double ceiling, double u)
{
    const double t = std::pow(u, 1 / kappa);
    return floor + (ceiling - floor) * (right ? t : 1 - t);
}

double WorldDraws::aurocOf(double kappa)
{
    return 1 - std::exp(std::log(kappa) + std::lgamma(kappa) + std::lgamma(kappa + 1) - std::lgamma(2 * kappa + 1));
}

double WorldDraws::kappaForAuroc(double auroc)
{
    double lo = 1, hi = 1e6;
    for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; ++i) {
        const double mid = std::sqrt(lo * hi);
        (aurocOf(mid) < auroc ? lo : hi) = mid;
    }
    return 0.5 * (lo + hi);
}

} // namespace conclave
