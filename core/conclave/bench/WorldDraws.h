#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace conclave {

// The ground-truth world's distributions, each drawn from DeterministicRandom
// keys so that the same key always gives the same value. Their families are
// chosen to differ from the simulator's (normal-ogive, normal confidence,
// lognormal latency), so a calibration that only fits the simulator's forms
// is tested against forms it does not assume.
class WorldDraws {
public:
    // Log-logistic with this median and shape β: median · (u / (1 − u))^(1/β),
    // u clamped to [0.005, 0.995] (a heavier tail than the lognormal; the mean
    // is finite for β > 1).
    static double logLogistic(double median, double shape, double u);

    // Gamma(α, 1) by Marsaglia and Tsang (ACM TOMS 26(3), 2000), with
    // Gamma(α) = Gamma(α + 1) · U^(1/α) for α < 1; its draws come from `key`'s
    // streams from `stream` on.
    static double gamma(double alpha, uint64_t key, uint64_t stream);
    // A symmetric Dirichlet(α) draw over k options (k ≥ 1): gamma draws
    // normalised. Small α puts most weight on one option.
    static std::vector<double> dirichlet(double alpha, size_t k, uint64_t key);

    // Stated confidence: t ~ Beta(κ, 1) for a right answer (t = u^(1/κ)) and
    // Beta(1, κ) for a wrong one (t = 1 − u^(1/κ)), scaled to [floor, ceiling].
    // P(t_right > t_wrong) = 1 − κ·B(κ, κ + 1): the AUROC, whatever the scale.
    static double confidence(bool right, double kappa, double floor, double ceiling, double u);
    // The κ ≥ 1 whose AUROC is `auroc` (0.5 ≤ auroc < 1), to 1e-12.
    static double kappaForAuroc(double auroc);
    static double aurocOf(double kappa);
};

} // namespace conclave
