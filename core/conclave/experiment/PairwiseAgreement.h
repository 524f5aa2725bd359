#pragma once

#include "conclave/experiment/CalibrationSamples.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace conclave {

// How often models' wrong answers agree, measured as the published figure is
// defined (Kim et al., ICML 2025: agreement between *different* models when
// both are wrong), and converted to the simulator's `error_agreement`.
//
// The figure: over pairs of answers by two different models, both wrong on
// the same task with choices, the share giving the same answer. Repeated
// answers (seeds) each pair up; a model never pairs with itself.
//
// The conversion: the simulator gives a task's attractive wrong answer with
// chance q (its error_agreement), else one of the other K − 1 wrong choices
// uniformly (WrongAnswers), so two models both wrong agree with chance
//     p(q1, q2, K) = q1·q2 + (1 − q1)(1 − q2)/(K − 1)   (WrongAnswers::pairAgreement)
// (K ≥ 2; a task with one wrong choice says nothing). Each model's q
// maximises the pairs' composite likelihood Π p^same (1 − p)^(pairs − same)
// over every pair it is in, the others' q held, cycling until no q moves by
// 1e-7; q is searched in [1/K_min, 1] (K_min: the fewest wrong choices of its
// tasks), where p grows with q — below 1/K the attractive answer would be
// less likely than any other, which the simulator's form cannot mean.
class PairwiseAgreement {
public:
    struct Model {
        int64_t pairs = 0; // pairs of wrong answers it is in
        int64_t same = 0;  // of them, the same answer
        double fitted = 0; // q; only when pairs > 0
    };
    std::map<std::string, Model> models;

    static PairwiseAgreement fit(const std::vector<CalibrationSamples::Answer>& answers);
};

} // namespace conclave
