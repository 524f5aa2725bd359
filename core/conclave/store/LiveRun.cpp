#include "conclave/store/LiveRun.h"

#include "conclave/io/TeamJson.h"

#include <algorithm>

namespace conclave {

LiveRun::LiveRun(RunId id, const Team& team)
{
    m_run.summary.id = std::move(id);
    m_run.summary.teamName = team.name;
    m_run.summary.status = RunStatus::Running;
    m_run.teamJson = teamToJsonText(team); // as the recorder stores it: the timeline's lanes come from it
}

StoredRun LiveRun::snapshot(int64_t nowUs) const
{
    StoredRun out = m_run;
    std::erase_if(out.spans, [](const Span& s) { return s.id == 0; });
    if (!m_finished)
        out.summary.wallUs = std::max(nowUs, m_lastEventUs);
    return out;
}

void LiveRun::saw(int64_t atUs)
{
    m_lastEventUs = std::max(m_lastEventUs, atUs);
}

void LiveRun::runStarted(std::string_view runInput, uint64_t seed, ClockKind clock)
{
    m_run.summary.input = std::string(runInput);
    m_run.summary.seed = seed;
    m_run.summary.clock = clock;
    saw(0);
}

StoredNode& LiveRun::nodeOf(const NodeId& node)
{
    const auto it =
        std::find_if(m_run.nodes.begin(), m_run.nodes.end(), [&node](const StoredNode& n) { return n.node == node; });
    if (it != m_run.nodes.end())
        return *it;
    return m_run.nodes.emplace_back(StoredNode{node, {}, -1, -1});
}

void LiveRun::nodeQueued(const NodeId& node, int64_t atUs)
{
    auto& n = nodeOf(node);
    n.queuedUs = atUs;
    n.result.status = Status::Queued;
    saw(atUs);
}

void LiveRun::putSpan(const Span& span)
{
    if (span.id == 0)
        return;
    if (span.id > m_run.spans.size())
        m_run.spans.resize(span.id);
    m_run.spans[span.id - 1] = span;
}

void LiveRun::spanStarted(const Span& span)
{
    putSpan(span);
    if (span.kind == SpanKind::Attempt)
        ++m_run.summary.calls;
    saw(span.startUs);
}

void LiveRun::spanFinished(const Span& span)
{
    putSpan(span);
    // The totals so far: every attempt's usage once it has ended (the engine counts them the same way).
    if (span.kind == SpanKind::Attempt) {
        m_run.summary.tokensIn += span.tokensIn;
        m_run.summary.tokensOut += span.tokensOut;
        m_run.summary.costUsd += span.costUsd;
    }
    saw(span.endUs);
}

void LiveRun::nodeFinished(const NodeId& node, const NodeResult& result, int64_t atUs)
{
    auto& n = nodeOf(node);
    n.result = result;
    n.finishedUs = atUs;
    saw(atUs);
}

void LiveRun::runFinished(const RunResult& result)
{
    auto& s = m_run.summary;
    static_cast<RunTotals&>(s) = result;
    s.status = result.status;
    s.answer = result.output.answer;
    s.criticalPathUs = result.criticalPath.lengthUs;
    s.clock = result.clock;
    m_run.output = result.output;
    m_run.criticalPath = result.criticalPath.nodes;
    // The result holds every span as it ended, in the order they started: the same spans by id.
    for (const auto& span : result.spans)
        putSpan(span);
    m_finished = true;
    saw(result.wallUs);
}

} // namespace conclave
