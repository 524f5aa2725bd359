#pragma once

#include "conclave/engine/CallPurpose.h"
#include "conclave/engine/RunResult.h"
#include "conclave/experiment/ExperimentSpec.h"
#include "conclave/store/ExperimentRecords.h"

#include <optional>
#include <string>

namespace conclave {

// Scores an experiment's trials: after the design's run, by the task's
// reference, or by asking for a judge run (when the experiment has a judge
// and the task has no exact answer); after the judge's run, by its verdict.
class TrialScorer {
public:
    explicit TrialScorer(const ExperimentSpec& spec) : m_spec(spec) {}

    // Fills the trial from its design run. Returns the case the judge grades
    // when a judge must score it (its run's input is PromptBuilder::judgeInput
    // of it); otherwise the trial is scored.
    std::optional<JudgeCase> afterDesign(TrialRecord& trial, const RunResult& run, const Task& task) const;
    // Scores the trial by the judge run's verdict.
    void afterJudge(TrialRecord& trial, const RunResult& judge) const;
    // A judge run that could not start leaves the trial unscored, saying why.
    void judgeDidNotStart(TrialRecord& trial, const std::string& error) const;

private:
    const ExperimentSpec& m_spec;
};

} // namespace conclave
