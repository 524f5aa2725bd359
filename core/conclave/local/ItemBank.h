#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace conclave {

struct Task;

// The simulator's item-response model (docs/simulator.md). Every task has a
// difficulty z in standard units: its own `difficulty`, else one drawn from
// its id; z belongs to the task, never to the set or selection holding it. A
// model of skill s in a domain answers a task of difficulty z correctly with
// probability
//     P(s, z, w) = Φ((a − √w · z) / √(1 − w)),   a = Φ⁻¹(s)
// (a normal-ogive curve: correct when a − √w·z − √(1−w)·ε > 0 with ε a fresh
// standard normal draw per call). √w·z + √(1−w)·ε is standard normal when
// z ~ N(0, 1), so the mean of P over tasks of typical difficulty is exactly
// Φ(a) = s for every w: a skill is the accuracy on the typical task, and
// P(s, 0, w) > s for s > ½. A hard task is hard for every model, and two
// models' correctness on one task correlates through z. w, the model's
// difficulty_weight, is the share of the latent's variance that belongs to
// the task: at w = 0 the task does not matter (P = s); at w = 1 nothing else
// does: right exactly when a > z (P is 1 or 0; a = z is wrong), whose mean
// over z ~ N(0, 1) is still Φ(a) = s.
//
// A bank also holds, per domain, the free-text answers of its tasks: the
// wrong answers a model may give on a free-text task (WrongAnswers).
class ItemBank {
public:
    // ρ. Question-level scores of strong models correlate 0.3–0.7 (Miller,
    // arXiv 2411.00640); 0.7 on the latent gives a mean correlation of about
    // 0.3 between the bundled models' correctness on the bundled tasks, whose
    // skills differ by domain (`conclave bench sim`).
    // The default difficulty_weight.
    static constexpr double kShared = 0.7;

    ItemBank() = default;
    explicit ItemBank(const std::vector<Task>& tasks);

    // A task's difficulty: its own, else drawn(id). With `trialSeed` (a set
    // whose unmeasured difficulties are unknown: TaskSet::drawUnmeasuredPerTrial),
    // a task with none draws it anew per trial, from (id, seed): a prediction
    // then averages over what it does not know instead of fixing one draw per
    // task for every trial (docs/fidelity.md).
    static double difficulty(const Task& task, std::optional<uint64_t> trialSeed = std::nullopt);
    // A standard normal draw fixed by a key (a task id, a free prompt's hash).
    static double drawn(std::string_view key);

    // P(s, z, w); skills at or beyond 0 and 1 give exactly 0 and 1, and w is
    // taken within [0, 1].
    static double pCorrect(double skill, double z, double weight = kShared);
    // a = Φ⁻¹(s), for s strictly inside (0, 1).
    static double ability(double skill);
    // The inverse used by calibration: the skill s whose mean of P(s, z) over
    // zs (the difficulties of the tasks answered, one per answer) is
    // `accuracy`, to 1e-9; 0 and 1 stay 0 and 1, and with no zs it is the
    // accuracy itself. At weight 1 the mean is a step function of a: the
    // result is the least skill whose mean reaches the accuracy.
    static double skillFor(double accuracy, const std::vector<double>& zs, double weight = kShared);

    // The normalised answers of a domain's tasks without choices, in set
    // order, each once: what a model may give instead on a free-text task.
    const std::vector<std::string>& answers(std::string_view domain) const;

    // The normal CDF and its inverse, shared by the simulator's curves.
    static double normalCdf(double x);
    static double normalQuantile(double p);

private:
    std::map<std::string, std::vector<std::string>, std::less<>> m_answers; // per domain
};

} // namespace conclave
