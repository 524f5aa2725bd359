#pragma once

#include "conclave/routing/PromptFeatures.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace conclave {

// A trained router as router.json holds it (RouterFile reads and writes it):
// for each candidate model, P(its answer to a prompt is right | the prompt's
// PromptFeatures). Plain data; RouterPredictor answers from it quickly.
struct RouterModel {
    enum class Method { Logistic, Knn };

    // One model's L2-regularised logistic regression (liblinear):
    // p = 1 / (1 + exp(−(bias + Σ weight·x))).
    struct Linear {
        double c = 0; // the regularisation constant cross-validation chose
        double bias = 0;
        SparseVector weights; // ascending index
    };

    // How the router did on tasks it never saw (train-router --holdout).
    struct HeldOut {
        std::string model;
        int64_t answers = 0;              // held-out (task, seed) answers
        std::optional<double> logLoss;    // mean −ln p(outcome); none without answers
        std::optional<double> auroc;      // of p, right against wrong (Auroc)
        std::optional<double> domainAuroc; // the same with the gate's domain weights as the only features
    };

    Method method = Method::Logistic;
    std::vector<std::string> models;  // in the order every per-model list follows
    std::vector<int64_t> answers;     // training answers per model
    std::vector<double> baseRates;    // share right per model, over the training answers
    // The gate the features were computed with: a router is refused under another.
    uint32_t buckets = 0;
    std::vector<std::string> domains;

    std::vector<Linear> linear; // logistic: one per model

    // Logistic with two or more models: whether the prompt's weights are common
    // to every model, each model differing only in its bias
    // (RouterTrainer::Weights), and, when both ways were cross-validated, each
    // one's error in the predicted differences between models, which chose it.
    struct Pooling {
        double separate = 0;
        double common = 0;
    };
    bool commonWeights = false;
    std::optional<Pooling> pooling;

    // knn: p = (Σ over the k nearest training prompts that model answered of
    // its share right there + base rate) / (those prompts + 1)
    int k = 0;
    std::vector<SparseVector> prompts;            // each L2-normalised
    std::vector<std::vector<double>> outcomes;    // [prompt][model]: share right, −1 when not answered

    // A task by the name of its set (as the experiment named it) and its id.
    struct TaskRef {
        std::string set;
        std::string id;
        friend bool operator==(const TaskRef&, const TaskRef&) = default;
    };

    std::vector<std::string> experiments; // trained on
    std::vector<TaskRef> tasks;           // trained on
    std::vector<TaskRef> heldoutTasks;    // measured on, never trained on
    std::vector<HeldOut> heldout;
    double holdout = 0; // the share of tasks held out
    uint64_t seed = 0;  // the split's and folds' seed

    std::optional<size_t> modelIndex(const std::string& name) const;
};

std::string_view toString(RouterModel::Method method);

} // namespace conclave
