#pragma once

#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace conclave {

struct Task;

// The simulator's item-response model (docs/simulator.md). Every task has a
// difficulty z in standard units: its own `difficulty`, else one drawn from
// its id. A model of skill s in a domain answers a task of difficulty z
// correctly with probability
//     P(s, z) = Φ((a − √ρ · z) / √(1 − ρ))
// (a normal-ogive curve: correct when a − √ρ·z − √(1−ρ)·ε > 0 with ε a fresh
// standard normal draw per call), where the ability a is the one for which
// the mean of P over the domain's tasks is exactly s. So a hard task is hard
// for every model, each model's accuracy over a domain stays its skill, and
// two models' correctness on one task correlates through z (ρ is the share of
// the latent's variance that belongs to the task).
//
// For a domain with no tasks here the mean is over z ~ N(0, 1), so a = Φ⁻¹(s).
// Abilities are solved once per (domain, skill) and kept, behind a mutex:
// one bank is shared by every run that uses its task set.
class ItemBank {
public:
    // ρ. Question-level scores of strong models correlate 0.3–0.7 (Miller,
    // arXiv 2411.00640); 0.7 on the latent gives a mean correlation of 0.31
    // between the bundled models' correctness on the bundled tasks, whose
    // skills differ by domain (`conclave bench sim`).
    static constexpr double kShared = 0.7;

    ItemBank() = default;
    // Calibrates each domain over the tasks of the first group that holds it:
    // groupStarts are the indexes where merged sets begin (0 first), so a set
    // merged into another calibrates only the domains the first lacks.
    ItemBank(const std::vector<Task>& tasks, const std::vector<size_t>& groupStarts);
    ItemBank(const ItemBank&) = delete;
    ItemBank& operator=(const ItemBank&) = delete;

    // A task's difficulty: its own, else drawn(id).
    static double difficulty(const Task& task);
    // A standard normal draw fixed by a key (a task id, a free prompt's hash).
    static double drawn(std::string_view key);

    // P(s, z) in `domain`; skills at or beyond 0 and 1 give exactly 0 and 1.
    double pCorrect(std::string_view domain, double skill, double z) const;
    double ability(std::string_view domain, double skill) const;

    // The normalised answers of a domain's tasks without choices, in set
    // order, each once: what a model may give instead on a free-text task.
    const std::vector<std::string>& answers(std::string_view domain) const;

    // The normal CDF and its inverse, shared by the simulator's curves.
    static double normalCdf(double x);
    static double normalQuantile(double p);

private:
    std::map<std::string, std::vector<double>, std::less<>> m_difficulties; // per domain
    std::map<std::string, std::vector<std::string>, std::less<>> m_answers; // per domain
    mutable std::mutex m_mutex;
    mutable std::map<std::string, std::map<double, double>, std::less<>> m_abilities;
};

} // namespace conclave
