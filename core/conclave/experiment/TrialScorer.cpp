#include "conclave/experiment/TrialScorer.h"

#include "conclave/engine/ReplyParser.h"
#include "conclave/experiment/TrialRecordBuilder.h"

namespace conclave {

std::optional<JudgeCase> TrialScorer::afterDesign(TrialRecord& trial, const RunResult& run, const Task& task) const
{
    TrialRecordBuilder::fillFromRun(trial, run, m_spec.designs[size_t(trial.design)].team);
    if (m_spec.judge && !trial.failed() && TrialRecordBuilder::judges(task)) {
        trial.expected = ReplyParser::normalizeAnswer(task.answer);
        return JudgeCase{task.prompt, task.answer, run.output.answer.empty() ? run.output.text : run.output.answer};
    }
    TrialRecordBuilder::scoreByReference(trial, task);
    return std::nullopt;
}

void TrialScorer::afterJudge(TrialRecord& trial, const RunResult& judge) const
{
    TrialRecordBuilder::scoreByJudge(trial, judge);
}

void TrialScorer::judgeDidNotStart(TrialRecord& trial, const std::string& error) const
{
    trial.scoreDetail = "judge did not start: " + error;
}

} // namespace conclave
