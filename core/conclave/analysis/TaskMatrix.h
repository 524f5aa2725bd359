#pragma once

#include "conclave/analysis/ExperimentStats.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace conclave {

// One task × design cell of an experiment: its trials (one per seed).
struct TaskMatrixCell {
    enum class Outcome { NotRun, Correct, Wrong, Failed, Mixed, Unscored };

    int trials = 0;
    int correct = 0;
    int wrong = 0;                                // scored and not right, failures included
    int failed = 0;                               // of wrong: the run itself failed
    std::vector<std::pair<uint64_t, RunId>> runs; // by seed, ascending
    bool regressed = false;                       // the task is one of the design's regressions against the baseline

    int scored() const { return correct + wrong; }
    // correct ÷ scored; 0 when nothing is scored.
    double accuracy() const { return scored() ? double(correct) / double(scored()) : 0; }
    // Every trial right, every one wrong (Failed when all of those failed),
    // some of each (Mixed), none scored, or none run.
    Outcome outcome() const;
};

struct TaskMatrixRow {
    std::string task;
    std::string domain;
    std::vector<TaskMatrixCell> cells; // one per design, in spec order
    // The designs that ran the task do not all have the same accuracy on it.
    bool differs = false;
    bool regressed = false; // a regression for some design
};

// The task matrix of the studio's experiment view, from core's statistics:
// rows grouped by domain (domains in the order their first task appears),
// tasks in trial order within a domain; regressions are ExperimentStats'.
class TaskMatrix {
public:
    enum class Filter { All, Differs, Regressions };

    static TaskMatrix build(const std::vector<std::string>& designs, const ExperimentSummary& summary,
                            const std::vector<TrialRecord>& trials);

    const std::vector<TaskMatrixRow>& rows() const { return m_rows; }
    std::vector<const TaskMatrixRow*> rows(Filter filter) const;
    size_t designs() const { return m_designs; }

private:
    std::vector<TaskMatrixRow> m_rows;
    size_t m_designs = 0;
};

} // namespace conclave
