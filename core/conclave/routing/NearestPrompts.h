#pragma once

#include "conclave/routing/RouterModel.h"

#include <cstdint>
#include <vector>

namespace conclave {

struct RouterTrainingSet;

// The knn router's index: training prompts (L2-normalised PromptFeatures
// vectors) behind an inverted index, so a query scores only the prompts that
// share a feature with it (cosine similarity), and each model's share right
// on each prompt. A model's p for a query is
//     p = (Σ over the k nearest prompts it answered of its share right there + its base rate)
//         / (the number of those prompts + 1)
// — the neighbours' mean shrunk towards the base rate by one pseudo-prompt,
// so a model with no answering neighbour gets its base rate.
// Borrows the prompts and outcomes: they must outlive it. Immutable; thread-safe.
class NearestPrompts {
public:
    // include: which prompts the index holds (empty: all).
    NearestPrompts(const std::vector<SparseVector>& prompts, const std::vector<std::vector<double>>& outcomes,
                   std::vector<double> baseRates, uint32_t dimension, const std::vector<bool>& include = {});

    // The k (or fewer) most similar prompts, most similar first; ties by index.
    std::vector<uint32_t> nearest(const SparseVector& x, size_t k) const;
    // p per model from the first k of `neighbours`.
    std::vector<double> estimate(const std::vector<uint32_t>& neighbours, size_t k) const;

    static SparseVector normalised(SparseVector x);
    // Fills model's k, prompts and outcomes from the set: k from RouterTrainer::kGrid by
    // grouped cross-validation (smallest mean log loss over the held-out answers; ties: the smaller k).
    static void fit(const RouterTrainingSet& set, const std::vector<int>& foldOfPrompt, int folds, RouterModel& model);

private:
    const std::vector<std::vector<double>>& m_outcomes;
    std::vector<double> m_baseRates;
    std::vector<std::vector<std::pair<uint32_t, double>>> m_postings; // index → (prompt, value)
    size_t m_prompts = 0;
};

} // namespace conclave
