#pragma once

#include "conclave/routing/RouterModel.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace conclave {

// What a router is trained on: prompts (one per task) and answers, one per
// (task, seed, model), right or wrong.
struct RouterTrainingSet {
    struct Answer {
        size_t prompt = 0; // index into prompts
        size_t model = 0;  // index into models
        bool right = false;
        std::vector<double> dense; // `denseFeatures` values of this answer itself (a cascade scorer's)
    };
    std::vector<std::string> models;
    std::vector<std::string> taskKeys; // one per prompt: what the cross-validation folds group by
    std::vector<SparseVector> prompts; // PromptFeatures::vector (or domainOnly) of each task's prompt
    uint32_t dimension = 0;            // PromptFeatures::dimension: every index is below it
    // Per-answer features after the prompt's, at indices dimension … dimension + denseFeatures − 1
    // (a learned router has none; a cascade scorer the answer's own, AnswerFeatures).
    uint32_t denseFeatures = 0;
    std::vector<Answer> answers;
};

// Trains a RouterModel's per-model predictors.
//  logistic: L2-regularised logistic regression (liblinear's L2R_LR solver, a
//   bias term, eps 0.01), fitted two ways:
//   - separate: for each model, on its own answers;
//   - common (with two or more models): one fit on every model's answers,
//     the prompt's features plus an indicator of the answering model, so the
//     models share the prompt's weights and differ only in their bias — a
//     Rasch-style model, logit p = ability(model) − difficulty(prompt), whose
//     difficulty is learned from every model's answers.
//   C is chosen from {2⁻⁶, 2⁻⁴, …, 2⁶} by 5-fold cross-validation grouped by
//   task (a task's seeds never straddle a fold, which liblinear's own
//   find_parameters would let happen), as the smallest held-out log loss
//   (ties: the smaller C); the grid is walked upwards, each fold's fit starting
//   from its fit at the C before, and stops two points past the best. With
//   Weights::Chosen both ways are cross-validated on the same folds and the one
//   whose held-out predictions tell the models apart better is kept: the
//   smaller mean over (prompt, pair of models) of ((p̂ᵢ − p̂ⱼ) − (yᵢ − yⱼ))²,
//   since a router acts on such differences (RouterModel::pooling records
//   both). The kept way is then trained on every answer at its C, starting
//   from the mean of its folds' fits. An answer's dense features
//   (RouterTrainingSet::denseFeatures) join its prompt's, and its Linear's
//   weights index both.
//  knn: the prompts themselves (L2-normalised) with each model's share right
//   per prompt; k from {5, 10, 20, 40} by the same grouped cross-validation.
// Folds: task i goes to fold contentHash(seed, task key) mod 5. Models are
// trained on up to `threads` threads; the result does not depend on how many.
class RouterTrainer {
public:
    // Logistic: one set of weights per model (Separate); one set every model
    // shares, each model with its own bias (Common); or whichever of the two
    // cross-validates better (Chosen).
    enum class Weights { Chosen, Separate, Common };

    struct Options {
        RouterModel::Method method = RouterModel::Method::Logistic;
        uint64_t seed = 0;
        int folds = 5;
        unsigned threads = 2;
        Weights weights = Weights::Chosen;
    };

    static const std::vector<double>& cGrid();
    static const std::vector<int>& kGrid();

    // Fills method, models, answers, base rates and the predictors of the
    // returned model (the caller sets the gate, provenance and held-out figures).
    static RouterModel train(const RouterTrainingSet& set, const Options& options);

    // The fold (0 … folds−1) a task falls in.
    static int foldOf(const std::string& taskKey, uint64_t seed, int folds);
};

} // namespace conclave
