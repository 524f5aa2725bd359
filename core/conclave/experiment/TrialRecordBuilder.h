#pragma once

#include "conclave/engine/RunResult.h"
#include "conclave/experiment/TrialPlan.h"
#include "conclave/local/TaskSet.h"
#include "conclave/model/Team.h"
#include "conclave/store/ExperimentRecords.h"

#include <string>

namespace conclave {

// Fills a trial's row: what it is, what its run did, and its score.
class TrialRecordBuilder {
public:
    static TrialRecord start(const std::string& experimentId, const std::string& designName, const PlannedTrial& trial,
                             const Task& task);
    // Status, answer, times, cost, tokens, calls and each agent's share (critical path, cost, busy
    // time, each call attempt's duration), from the design's run.
    static void fillFromRun(TrialRecord& record, const RunResult& result, const Team& team);
    // Whether a judge (when the experiment has one) scores this task: only a
    // task with no reference answer (no answer, choices or tolerance). A task
    // with one keeps its deterministic scorer (exact, numeric or choice)
    // whether or not the experiment has a judge (docs/experiments.md).
    static bool judges(const Task& task);
    // A failed run is wrong; otherwise the answer against the task's reference (AnswerScorer).
    static void scoreByReference(TrialRecord& record, const Task& task);
    // The judge run's verdict: "correct" or "incorrect"; anything else leaves the trial unscored.
    static void scoreByJudge(TrialRecord& record, const RunResult& judge);
};

} // namespace conclave
