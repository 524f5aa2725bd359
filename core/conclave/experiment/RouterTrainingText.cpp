#include "conclave/experiment/RouterTrainingText.h"

#include "conclave/util/NumberText.h"

namespace conclave {

namespace {

std::string signedFigure(double value)
{
    return (value >= 0 ? "+" : "") + fixedDigits(value, 3);
}

} // namespace

std::string RouterTrainingText::figure(const std::optional<double>& value)
{
    return value ? fixedDigits(*value, 3) : "-";
}

std::string RouterTrainingText::trained(const RouterModel& model)
{
    int64_t answers = 0;
    for (const auto n : model.answers)
        answers += n;
    return std::string(toString(model.method)) + " router over " + std::to_string(model.models.size()) +
           " models, trained on " + std::to_string(model.tasks.size()) + " tasks (" + std::to_string(answers) +
           " answers) of " + std::to_string(model.experiments.size()) +
           (model.experiments.size() == 1 ? " experiment" : " experiments");
}

std::optional<std::string> RouterTrainingText::neighbours(const RouterModel& model)
{
    if (model.method != RouterModel::Method::Knn)
        return std::nullopt;
    return "k " + std::to_string(model.k) + " (chosen by 5-fold cross-validation grouped by task)";
}

std::optional<std::string> RouterTrainingText::pooling(const RouterModel& model)
{
    if (model.method != RouterModel::Method::Logistic || model.models.size() < 2)
        return std::nullopt;
    std::string line = model.commonWeights ? "weights: common to the models, each with its own bias"
                                           : "weights: separate per model";
    if (model.pooling) {
        const double kept = model.commonWeights ? model.pooling->common : model.pooling->separate;
        const double other = model.commonWeights ? model.pooling->separate : model.pooling->common;
        line += " (cross-validated error of the differences between models " + fixedDigits(kept, 4) + ", " +
                (model.commonWeights ? "separate " : "common ") + fixedDigits(other, 4) + ")";
    }
    return line;
}

std::optional<std::string> RouterTrainingText::heldOut(const RouterModel& model)
{
    if (model.heldoutTasks.empty())
        return std::nullopt;
    return "held out: " + std::to_string(model.heldoutTasks.size()) + " tasks (" + fixedDigits(model.holdout * 100, 0) +
           " %, seed " + std::to_string(model.seed) + ")";
}

std::optional<std::string> RouterTrainingText::meanAuroc(const RouterTraining::Result& result)
{
    if (!result.auroc || !result.domainAuroc)
        return std::nullopt;
    std::string line = "mean held-out AUROC " + fixedDigits(*result.auroc, 3) + " (domain-only " +
                       fixedDigits(*result.domainAuroc, 3) + ")";
    if (result.gainCi)
        line += "; the prompt's gain " + signedFigure(*result.auroc - *result.domainAuroc) + ", 95 % CI [" +
                signedFigure(result.gainCi->first) + ", " + signedFigure(result.gainCi->second) +
                "] (paired bootstrap over held-out tasks)";
    return line;
}

} // namespace conclave
