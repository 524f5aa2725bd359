#pragma once

#include "conclave/experiment/RouterTraining.h"

#include <optional>
#include <string>

namespace conclave {

// What `conclave train-router` prints of a training and the studio's Train
// Router dialog shows, worded and rounded once for both: figures to 3
// decimals, "-" for one that could not be measured.
class RouterTrainingText {
public:
    // "0.712"; "-" when unset.
    static std::string figure(const std::optional<double>& value);
    // "logistic router over 2 models, trained on 28 tasks (112 answers) of 1 experiment"
    static std::string trained(const RouterModel& model);
    // "k 5 (chosen by 5-fold cross-validation grouped by task)" of a knn router; unset for another.
    static std::optional<std::string> neighbours(const RouterModel& model);
    // "weights: common to the models, each with its own bias (cross-validated error of the differences
    // between models 0.1712, separate 0.1750)"
    // of a logistic router over two or more models; unset for another.
    static std::optional<std::string> pooling(const RouterModel& model);
    // "held out: 12 tasks (30 %, seed 0)"; unset when nothing was held out.
    static std::optional<std::string> heldOut(const RouterModel& model);
    // "mean held-out AUROC 0.712 (domain-only 0.700); the prompt's gain +0.012, 95 % CI [-0.020, +0.041]
    // (paired bootstrap over held-out tasks)"; unset when nothing was measured.
    static std::optional<std::string> meanAuroc(const RouterTraining::Result& result);
};

} // namespace conclave
