#pragma once

#include "conclave/experiment/CalibrationSamples.h"
#include "conclave/routing/RouterModel.h"
#include "conclave/routing/RouterTrainer.h"

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace conclave {

class Gate;
class RunQueries;

// `conclave train-router`: a RouterModel from stored experiments. One answer
// per (task, seed, model) — every scored answer CalibrationSamples reads, so
// any design whose experts answered on their own counts — kept for the
// candidate models on the tasks every one of them answered. Tasks are split
// by TaskSplit::holdout(share, seed): the model is trained on part 0 and
// measured once on part 1 (log loss and AUROC per model), beside the same
// method trained on the gate's domain weights alone. Whether the prompt adds
// anything is a paired percentile bootstrap over the held-out tasks (2,000
// resamples, seeded by the split's seed): the mean over models of
// AUROC(prompt) − AUROC(domain only), each resample redrawing tasks with every
// answer to them; the prompt "adds nothing" when that CI's lower end is ≤ 0.
class RouterTraining {
public:
    struct Options {
        std::vector<std::string> experiments;
        std::vector<std::string> models; // empty: every model that answered
        RouterModel::Method method = RouterModel::Method::Logistic;
        RouterTrainer::Weights weights = RouterTrainer::Weights::Chosen; // logistic
        double holdout = 0.3; // 0: train on every task, measure nothing
        uint64_t seed = 0;
        unsigned threads = 2;
    };

    struct Result {
        RouterModel model;
        std::vector<std::string> warnings;
        // Mean over models of the held-out AUROC, with prompt features and with the domain alone.
        std::optional<double> auroc;
        std::optional<double> domainAuroc;
        // The paired bootstrap's 95 % CI of auroc − domainAuroc.
        std::optional<std::pair<double, double>> gainCi;
        // "the prompt adds nothing over the domain: AUROC 0.71 vs 0.70 domain-only" when gainCi reaches 0.
        std::optional<std::string> domainNote;
    };

    static constexpr int kResamples = 2000;
    static constexpr int64_t kFewAnswers = 100;

    // The models that gave a scored answer in `samples`, by name: the
    // candidates a router can be trained over (Options::models empty: all).
    static std::vector<std::string> answeringModels(const CalibrationSamples& samples);

    static std::optional<Result> run(RunQueries& store, const Options& options,
                                     const std::filesystem::path& resourcesDir, std::shared_ptr<const Gate> gate,
                                     std::string& error);

    // The same from samples already read (part 0 and part 1 of the split).
    static std::optional<Result> fromSamples(const CalibrationSamples& train, const CalibrationSamples* heldout,
                                             const Options& options, std::shared_ptr<const Gate> gate,
                                             std::string& error);
};

} // namespace conclave
