#include "conclave/experiment/TrialRecordBuilder.h"

#include "conclave/engine/ReplyParser.h"
#include "conclave/experiment/AnswerScorer.h"
#include "conclave/replay/ReplayNote.h"

#include <algorithm>
#include <map>

namespace conclave {

TrialRecord TrialRecordBuilder::start(const std::string& experimentId, const std::string& designName,
                                      const PlannedTrial& trial, const Task& task)
{
    TrialRecord record;
    record.experimentId = experimentId;
    record.design = trial.design;
    record.designName = designName;
    record.task = task.id;
    record.domain = task.domain;
    record.seed = trial.seed;
    return record;
}

void TrialRecordBuilder::fillFromRun(TrialRecord& record, const RunResult& result, const Team& team)
{
    record.status = result.status;
    record.answer = result.output.answer;
    record.wallUs = result.wallUs;
    record.criticalPathUs = result.criticalPath.lengthUs;
    record.costUsd = result.costUsd;
    record.tokens = result.tokensIn + result.tokensOut;
    record.calls = result.calls;
    record.replayedCalls = 0;

    // Each agent: its own execution (node spans, summed over a member's rounds), its calls' cost
    // and each finished attempt's duration (attempt spans: the call latency the statistics use).
    std::map<NodeId, TrialAgent> agents;
    for (const auto& node : team.nodes) {
        if (node.kind == NodeKind::Input || node.kind == NodeKind::Output)
            continue;
        agents[node.id].node = node.id.str();
    }
    for (const auto& span : result.spans) {
        if (span.kind == SpanKind::Attempt && ReplayNote::marks(span.note))
            ++record.replayedCalls;
        const auto it = agents.find(span.node);
        if (it == agents.end())
            continue;
        if (span.kind == SpanKind::Node) {
            it->second.ran = true;
            it->second.wallUs += span.durationUs();
        } else if (span.kind == SpanKind::Attempt) {
            it->second.costUsd += span.costUsd;
            if (span.endUs >= 0)
                it->second.attemptsUs.push_back(span.durationUs());
        }
    }
    for (const auto& node : result.criticalPath.nodes) {
        if (const auto it = agents.find(node); it != agents.end())
            it->second.onCriticalPath = true;
    }
    record.agents.clear();
    for (const auto& node : team.nodes) {
        if (const auto it = agents.find(node.id); it != agents.end())
            record.agents.push_back(it->second);
    }
}

bool TrialRecordBuilder::judges(const Task& task)
{
    return task.answer.empty() && task.choices.empty() && !task.tolerance;
}

void TrialRecordBuilder::scoreByReference(TrialRecord& record, const Task& task)
{
    const auto score = AnswerScorer::score(task, record.answer);
    record.expected = score.expected;
    if (record.failed()) {
        record.correct = false;
        record.scoreDetail = "failed (" + std::string(toString(record.status)) + ")";
        return;
    }
    record.correct = score.correct;
    record.scoreDetail = score.method;
}

void TrialRecordBuilder::scoreByJudge(TrialRecord& record, const RunResult& judge)
{
    record.judgeCostUsd += judge.costUsd;
    const auto verdict = ReplyParser::normalizeAnswer(judge.output.answer);
    if (judge.status != RunStatus::Ok && judge.status != RunStatus::Partial) {
        record.correct.reset();
        record.scoreDetail = "judge " + std::string(toString(judge.status)) +
                             (judge.output.error.empty() ? "" : ": " + judge.output.error);
    } else if (verdict == "correct" || verdict == "incorrect") {
        record.correct = verdict == "correct";
        record.scoreDetail = "judge: " + verdict;
    } else {
        record.correct.reset();
        record.scoreDetail = "judge gave \"" + verdict + "\", neither correct nor incorrect";
    }
}

} // namespace conclave
