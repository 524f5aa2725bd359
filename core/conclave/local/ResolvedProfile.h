#pragma once

#include "conclave/local/ItemBank.h"
#include "conclave/model/Backend.h"

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace conclave {

// A model profile with every field filled in, but for the context window,
// which a model may leave unset (then nothing is too long for it).
struct ResolvedProfile {
    std::map<std::string, double, std::less<>> skills;
    Distribution ttftMs{300, 600};
    Distribution tokensPerS{50, 30};
    Distribution outputTokens{120, 300};
    Price pricePerMtok{0, 0};
    std::optional<int64_t> contextTokens; // absent: no context limit
    double failureRate = 0;
    std::optional<double> errorAgreement; // absent: defaultAgreement()
    double difficultyWeight = ItemBank::kShared;
    // Verbalised confidence of real LLMs: high and overconfident, a stated-
    // confidence AUROC near 0.7 (Xiong et al., ICLR 2024: 0.6–0.8).
    static inline const ConfidenceProfile kDefaultConfidence{{0.86, 0.10, {}}, {0.78, 0.12, {}}};
    ConfidenceProfile confidence = kDefaultConfidence;
    std::optional<SynthesisProfile> synthesis; // absent: the weighing synthesizer
    double loadSlope = 0;
    double retryRepeat = 0;
    std::optional<double> conformity; // absent: the built-in persuasion
    double repeatAgreement = 0;        // κ: two calls asked the same answer alike with chance κ

    double skill(std::string_view domain) const;
    // The chance that a wrong answer is the task's attractive one
    // (WrongAnswers): error_agreement, else 0.57 + 0.3 × the mean skill, so
    // stronger models' errors agree more (Kim et al., ICML 2025).
    double agreement() const;
    // The longest a successful call can take, in simulated milliseconds: every
    // draw at its clamp (3 standard deviations), the reply capped at maxTokens.
    double worstLatencyMs(std::optional<int64_t> maxTokens = std::nullopt) const;

    // A distribution's value at the standard normal draw z: the lognormal
    // through its median and p95, z clamped to ±3 (its median when the two
    // are equal or the p95 is unset).
    static double at(const Distribution& d, double z);
};

} // namespace conclave
