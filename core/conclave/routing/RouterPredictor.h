#pragma once

#include "conclave/routing/NearestPrompts.h"
#include "conclave/routing/PromptFeatures.h"
#include "conclave/routing/RouterModel.h"

#include <memory>
#include <string_view>
#include <vector>

namespace conclave {

class Gate;

// Answers a RouterModel fast: logistic weights laid out per bucket with every
// model's weight side by side (one cache line per feature occurrence), knn
// prompts behind an inverted index (only prompts sharing a feature are
// scored). Built once per router file; immutable and thread-safe after.
// The gate is shared, so a predictor outlives the engine resources it came from.
class RouterPredictor {
public:
    // Fails (error set) when the model was trained under another gate.
    static std::shared_ptr<const RouterPredictor> make(RouterModel model, std::shared_ptr<const Gate> gate,
                                                        std::string& error);

    const RouterModel& model() const { return m_model; }
    const PromptFeatures& features() const { return m_features; }

    // P(right) per model, in model().models order.
    std::vector<double> predict(std::string_view prompt) const;
    // The same from features already computed (PromptFeatures::vector).
    std::vector<double> predict(const SparseVector& x) const;

private:
    RouterPredictor(RouterModel model, std::shared_ptr<const Gate> gate);
    std::vector<double> linear(const SparseVector& occurrences) const;
    std::vector<double> nearest(const SparseVector& x) const;

    RouterModel m_model;
    std::shared_ptr<const Gate> m_gate;
    PromptFeatures m_features;
    size_t m_stride = 0;
    std::vector<double> m_weights;                                    // [index × models + model]
    std::unique_ptr<NearestPrompts> m_nearest; // knn: over m_model's prompts
};

} // namespace conclave
