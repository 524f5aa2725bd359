#pragma once

#include "conclave/routing/AnswerFeatures.h"
#include "conclave/routing/RouterModel.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace conclave {

// A trained cascade scorer as scorer.json holds it (ScorerFile reads and
// writes it): for each member model, P(its answer is right | the prompt's
// PromptFeatures, the answer's AnswerFeatures), an L2-regularised logistic
// regression whose weights index the prompt's features (below
// PromptFeatures::dimension, D) and then the answer's (D … D + 6).
// Plain data; ScorerPredictor answers from it.
struct ScorerModel {
    // How the scorer did on tasks it never saw (train-scorer --holdout),
    // beside the answers' stated confidence on the same answers.
    struct HeldOut {
        std::string model;
        int64_t answers = 0;
        std::optional<double> logLoss;         // mean −ln p(outcome)
        std::optional<double> auroc;           // of the scorer's p, right against wrong (Auroc)
        std::optional<double> confidenceAuroc; // of the stated confidence
    };

    std::vector<std::string> models; // in cascade order: the order it was trained in
    std::vector<int64_t> answers;    // training answers per model
    std::vector<double> baseRates;   // share right per model, over them
    uint32_t buckets = 0;            // the gate the prompt features were computed with
    std::vector<std::string> domains;
    std::vector<RouterModel::Linear> linear; // one per model

    std::vector<std::string> experiments;
    std::vector<RouterModel::TaskRef> tasks;
    std::vector<RouterModel::TaskRef> heldoutTasks;
    std::vector<HeldOut> heldout;
    double holdout = 0;
    uint64_t seed = 0;

    // The prompt's features: B + 3 + domains; the answer's follow.
    uint32_t promptDimension() const { return buckets + PromptFeatures::kCountFeatures + uint32_t(domains.size()); }
    uint32_t dimension() const { return promptDimension() + AnswerFeatures::kCount; }
    std::optional<size_t> modelIndex(const std::string& name) const;
};

} // namespace conclave
