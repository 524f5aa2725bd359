#pragma once

#include "conclave/experiment/CalibrationSamples.h"
#include "conclave/routing/ScorerModel.h"

#include <array>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace conclave {

class Gate;
class RunQueries;

// `conclave train-scorer`: a cascade scorer (FrugalGPT's) from stored
// experiments. A cascade is reconstructed from independent answers, which is
// what a cascade sees: for each (experiment, seed, task) in which every
// candidate model answered (CalibrationSamples' answers; a model that
// answered more than once there counts with its first answer, in read
// order), member i's answer is one instance, its AnswerFeatures' agree and
// asked read from the answers of members 0 … i−1. Members are in `models`
// order (the cascade's); by default every answering model, by ascending
// share right over the training answers (ties by name). Per model, an
// L2-regularised logistic regression over the prompt's PromptFeatures and
// the answer's AnswerFeatures (RouterTrainer: liblinear L2R_LR, C by 5-fold
// cross-validation grouped by task). Tasks are split by
// TaskSplit::holdout(share, seed): trained on part 0, measured once on part 1
// per model: log loss, AUROC of the scorer's p and AUROC of the stated
// confidence on the same answers.
class ScorerTraining {
public:
    struct Options {
        std::vector<std::string> experiments;
        std::vector<std::string> models; // the cascade's order; empty: ascending training accuracy
        double holdout = 0.3;            // 0: train on every task, measure nothing
        uint64_t seed = 0;
        unsigned threads = 2;
    };

    struct Result {
        ScorerModel model;
        std::vector<std::string> warnings;
    };

    // One reconstructed cascade step.
    struct Instance {
        std::string task; // CalibrationSamples::Answer::task
        size_t model = 0; // index into the cascade's models
        bool right = false;
        double confidence = 0.5;
        std::array<double, AnswerFeatures::kCount> answer{};
    };

    static constexpr int64_t kFewAnswers = 100;

    // Every cascade step `samples` holds for the models in this order, in
    // (experiment, seed, task) order and then member order.
    static std::vector<Instance> instances(const CalibrationSamples& samples, const std::vector<std::string>& models);
    // The default order: every answering model by ascending share right (ties by name).
    static std::vector<std::string> byAccuracy(const CalibrationSamples& samples);

    static std::optional<Result> run(RunQueries& store, const Options& options,
                                     const std::filesystem::path& resourcesDir, std::shared_ptr<const Gate> gate,
                                     std::string& error);
    static std::optional<Result> fromSamples(const CalibrationSamples& train, const CalibrationSamples* heldout,
                                             const Options& options, std::shared_ptr<const Gate> gate,
                                             std::string& error);
};

} // namespace conclave
