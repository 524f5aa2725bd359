#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace conclave {

// Which part of a split a task belongs to: calibration and testing
// (`fidelity --holdout`), search, validation and test (`search --split`).
// Every split in Conclave is made here, the same way: a task's part is
// decided by its own key alone,
//     u = contentHash(seed, task set content hash, task id) read as a number in [0, 1)
// and the part is the first whose cumulative fraction exceeds u. So a task
// stays in its part whichever other tasks are selected, added or removed, and
// two commands given one seed agree on every task.
class TaskSplit {
public:
    // fractions: each in (0, 1], summing to 1 within 1e-9.
    static std::optional<TaskSplit> make(std::vector<double> fractions, uint64_t seed, std::string& error);
    // Parts {1 − holdout, holdout}: part 0 fits, part 1 is held out for testing.
    static std::optional<TaskSplit> holdout(double share, uint64_t seed, std::string& error);
    // Reads "0.5/0.25/0.25" (fractions separated by '/').
    static std::optional<TaskSplit> parse(std::string_view text, uint64_t seed, std::string& error);

    // The task's part, 0-based. tasksetHash: TaskSet::contentHash() of the
    // set the task comes from (pooled sets keep their own).
    size_t partOf(std::string_view tasksetHash, std::string_view taskId) const;
    // The number in [0, 1) a task's part is read from.
    double position(std::string_view tasksetHash, std::string_view taskId) const;

    const std::vector<double>& fractions() const { return m_fractions; }
    uint64_t seed() const { return m_seed; }

private:
    TaskSplit(std::vector<double> fractions, uint64_t seed) : m_fractions(std::move(fractions)), m_seed(seed) {}

    std::vector<double> m_fractions;
    uint64_t m_seed = 0;
};

} // namespace conclave
