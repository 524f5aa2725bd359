#include "conclave/analysis/ReplayOutputs.h"

#include <algorithm>

namespace conclave {

ReplayOutputs::ReplayOutputs(const StoredRun& run) : m_states(run)
{
    // The run's end as ReplayStates and the timeline take it.
    m_endUs = std::max<int64_t>(run.summary.wallUs, 0);
    for (const auto& s : run.spans)
        m_endUs = std::max(m_endUs, std::max(s.startUs, s.endUs));
    // Every node the replay has a state for (the team's, then the spans'), and any with a result.
    for (const auto& entry : m_states.statesAt(0))
        m_tracks.try_emplace(entry.first);
    for (const auto& n : run.nodes)
        add(m_tracks[n.node], n);
    for (const auto& s : run.spans)
        add(m_tracks[s.node], s, run);
}

void ReplayOutputs::add(Track& track, const Span& span, const StoredRun& run)
{
    if (span.kind == SpanKind::Node) {
        track.nodeSpans.push_back({span.startUs, span.endUs});
        track.lastSpanStatus = span.status;
    }
    if (const auto it = run.texts.find(span.id); it != run.texts.end() && !it->second.empty())
        track.pieces.push_back({span.endUs, it->second});
}

void ReplayOutputs::add(Track& track, const StoredNode& node)
{
    track.result = node.result;
    track.finishedUs = node.finishedUs;
}

void ReplayOutputs::append(std::string& text, std::string_view piece)
{
    // One piece a line: a piece that ends its own line gets no second break.
    if (!text.empty() && text.back() != '\n')
        text += '\n';
    text += piece;
}

std::string ReplayOutputs::finalText(const Track& track)
{
    if (track.result && !track.result->text.empty())
        return track.result->text;
    std::string text;
    for (const auto& p : track.pieces)
        append(text, p.text);
    return text;
}

NodeOutput ReplayOutputs::finalOf(const Track& track)
{
    NodeOutput out;
    out.result = track.result;
    out.status = track.result ? std::optional<Status>(track.result->status) : track.lastSpanStatus;
    if (out.status)
        out.text = finalText(track);
    return out;
}

int64_t ReplayOutputs::finishOf(const Track& track) const
{
    if (!track.result) // nothing to reveal before the end: only the end makes it final
        return m_endUs;
    int64_t finish = track.finishedUs;
    if (finish < 0 && !track.nodeSpans.empty()) {
        finish = 0;
        for (const auto& s : track.nodeSpans)
            finish = std::max(finish, s.endUs >= 0 ? s.endUs : m_endUs);
    }
    return finish < 0 ? m_endUs : std::min(finish, m_endUs);
}

NodeOutput ReplayOutputs::at(const NodeId& node, int64_t atUs) const
{
    const auto it = m_tracks.find(node);
    if (it == m_tracks.end())
        return {};
    const Track& track = it->second;
    if (atUs >= finishOf(track))
        return finalOf(track);
    NodeOutput out;
    out.status = m_states.stateAt(node, atUs);
    for (const auto& p : track.pieces) {
        if (p.endUs >= 0 && p.endUs <= atUs)
            append(out.text, p.text);
    }
    if (*out.status == Status::Running) {
        // The span in progress: the latest one started that had not ended by t.
        for (const auto& s : track.nodeSpans) {
            if (s.startUs <= atUs && (s.endUs < 0 || s.endUs > atUs))
                out.runningSinceUs = std::max(out.runningSinceUs, s.startUs);
        }
    }
    return out;
}

std::string ReplayOutputs::storedText(const StoredRun& run, const NodeId& node)
{
    Track track;
    for (const auto& n : run.nodes) {
        if (n.node == node)
            add(track, n);
    }
    for (const auto& s : run.spans) {
        if (s.node == node)
            add(track, s, run);
    }
    return finalText(track);
}

} // namespace conclave
