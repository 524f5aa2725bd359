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
    // Status, answer, times, cost, tokens, calls and each agent's share, from the design's run.
    static void fillFromRun(TrialRecord& record, const RunResult& result, const Team& team);
    // Whether a judge (when the experiment has one) scores this task: a task
    // without choices and without a tolerance, whose answer is free text.
    static bool judges(const Task& task);
    // A failed run is wrong; otherwise the answer against the task's reference (AnswerScorer).
    static void scoreByReference(TrialRecord& record, const Task& task);
    // The judge run's verdict: "correct" or "incorrect"; anything else leaves the trial unscored.
    static void scoreByJudge(TrialRecord& record, const RunResult& judge);
};

} // namespace conclave
