#include "conclave/analysis/RankAgreement.h"

#include <cmath>

namespace conclave {

RankAgreement RankAgreement::of(const std::vector<double>& predicted, const std::vector<double>& measured,
                                const std::vector<Interval>& measuredCi)
{
    RankAgreement out;
    int64_t predictedTies = 0;
    int64_t measuredTies = 0;
    const size_t n = std::min({predicted.size(), measured.size(), measuredCi.size()});
    for (size_t i = 0; i < n; ++i) {
        for (size_t j = i + 1; j < n; ++j) {
            const bool separated = measuredCi[i].hi < measuredCi[j].lo || measuredCi[j].hi < measuredCi[i].lo;
            if (!separated)
                continue;
            ++out.pairs;
            const double p = predicted[i] - predicted[j];
            const double m = measured[i] - measured[j];
            if (p == 0)
                ++predictedTies;
            if (m == 0)
                ++measuredTies;
            if (p != 0 && m != 0)
                ++((p > 0) == (m > 0) ? out.concordant : out.discordant);
        }
    }
    const double denominator = std::sqrt(double(out.pairs - predictedTies) * double(out.pairs - measuredTies));
    if (out.pairs > 0 && denominator > 0)
        out.tauB = double(out.concordant - out.discordant) / denominator;
    return out;
}

} // namespace conclave
