#pragma once

#include "conclave/analysis/ExperimentStats.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace conclave {

// Whether predictions order designs as measurements do: Kendall's τ-b
// (M. G. Kendall, "The treatment of ties in ranking problems", Biometrika
// 33, 1945) over the pairs of designs whose measured 95 % CIs do not overlap
// (the pairs a measurement separates; the rest say nothing of order). Over
// those n0 pairs, with C concordant (predicted and measured differ in the
// same direction), D discordant, n1 tied in prediction and n2 tied in
// measurement (0: separated pairs differ),
//   τ-b = (C − D) / √((n0 − n1)(n0 − n2)).
struct RankAgreement {
    int64_t pairs = 0;      // separated pairs: n0
    int64_t concordant = 0;
    int64_t discordant = 0;
    std::optional<double> tauB; // unset when no pair is separated, or every one is tied in prediction

    static RankAgreement of(const std::vector<double>& predicted, const std::vector<double>& measured,
                            const std::vector<Interval>& measuredCi);
};

} // namespace conclave
