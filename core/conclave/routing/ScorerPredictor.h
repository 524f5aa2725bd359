#pragma once

#include "conclave/engine/AnswerScore.h"
#include "conclave/routing/PromptFeatures.h"
#include "conclave/routing/ScorerModel.h"

#include <array>
#include <memory>
#include <string>
#include <vector>

namespace conclave {

class Gate;

// Answers a ScorerModel: p = 1 / (1 + exp(−(bias + w·x))), x the prompt's
// PromptFeatures followed by the answer's AnswerFeatures. Built once per
// scorer file (when a team is prepared); immutable and thread-safe after.
// The gate is shared, so a predictor outlives the resources it came from.
class ScorerPredictor : public AnswerScore {
public:
    // Fails (error set) when the model was trained under another gate.
    static std::shared_ptr<const ScorerPredictor> make(ScorerModel model, std::shared_ptr<const Gate> gate,
                                                       std::string& error);

    const ScorerModel& model() const { return m_model; }
    const PromptFeatures& features() const { return m_features; }

    // P(right) of model `m`'s answer: `prompt` as PromptFeatures::occurrences
    // or vector gives it, `answer` as AnswerFeatures::of does.
    double predict(size_t m, const SparseVector& prompt,
                   const std::array<double, AnswerFeatures::kCount>& answer) const;

    // AnswerScore: the features of `answer` and its prompt, for its model; a
    // model the scorer does not know (which validation refuses) keeps its
    // stated confidence.
    double score(const ScoredAnswer& answer) const override;

private:
    ScorerPredictor(ScorerModel model, std::shared_ptr<const Gate> gate);

    ScorerModel m_model;
    std::shared_ptr<const Gate> m_gate;
    PromptFeatures m_features;
    std::vector<std::vector<double>> m_weights; // per model, dense over dimension()
};

} // namespace conclave
