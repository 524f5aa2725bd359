#pragma once

#include <string>
#include <vector>

namespace conclave {

class ItemBank;
struct Task;

// The wrong answers a simulated model can give on a task, the same for every
// model, so that errors can agree (docs/simulator.md):
//   choices     the other choices
//   a number    slips: ±1, ×1.1, a digit dropped (÷10), ±10 for an integer;
//               none within the task's tolerance
//   otherwise   the other answers of the domain's free-text tasks
// One of them is the task's attractive wrong answer, fixed by the task's id.
class WrongAnswers {
public:
    WrongAnswers(const Task& task, const ItemBank& items);

    // The attractive wrong answer; "unknown" when there is no other answer at all.
    const std::string& attractive() const;
    // Another wrong answer, u in [0, 1) choosing uniformly among the rest
    // (the attractive one when it is the only one).
    const std::string& other(double u) const;
    // Normalised, each once, without the truth.
    const std::vector<std::string>& all() const { return m_answers; }

    // The chance that two models, each wrong on a task with `wrongOptions`
    // wrong answers (all().size()) and outside a meeting, give the same wrong
    // answer, when each gives the attractive one with its chance q (its
    // agreement) and otherwise one of the other K − 1 uniformly:
    //     q1·q2 + (1 − q1)(1 − q2) / (K − 1)   for K ≥ 2,   1 for K ≤ 1.
    // The figure calibration measures over pairs of models and inverts.
    static double pairAgreement(double q1, double q2, size_t wrongOptions);

private:
    std::vector<std::string> m_answers;
    size_t m_attractive = 0;
};

} // namespace conclave
