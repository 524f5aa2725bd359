#include "conclave/analysis/ReplayStates.h"

#include "conclave/io/TeamJson.h"

#include <algorithm>

namespace conclave {

ReplayStates::ReplayStates(const StoredRun& run)
{
    int64_t runEndUs = std::max<int64_t>(run.summary.wallUs, 0);
    for (const auto& s : run.spans)
        runEndUs = std::max(runEndUs, std::max(s.startUs, s.endUs));
    const auto track = [this](const NodeId& node) {
        if (m_index.emplace(node, m_tracks.size()).second)
            m_tracks.push_back(Track{node, {}, {}, Status::Queued, -1});
    };
    if (const auto loaded = teamFromJsonText(run.teamJson); loaded.team) {
        for (const auto& node : loaded.team->nodes)
            track(node.id);
    }
    for (const auto& s : run.spans)
        track(s.node);

    for (const auto& s : run.spans) {
        if (s.kind != SpanKind::Node)
            continue;
        const int64_t end = s.endUs >= 0 ? s.endUs : std::max(runEndUs, s.startUs);
        m_tracks[m_index.at(s.node)].spans.push_back({s.startUs, end, s.status, s.endUs < 0});
    }
    for (auto& t : m_tracks) {
        std::stable_sort(t.spans.begin(), t.spans.end(),
                         [](const Interval& a, const Interval& b) { return a.startUs < b.startUs; });
        t.latest.reserve(t.spans.size());
        for (uint32_t i = 0; i < t.spans.size(); ++i) {
            // Ties go to the later span: it is the one the node finished with.
            t.latest.push_back(i == 0 || t.spans[i].endUs >= t.spans[t.latest.back()].endUs ? i : t.latest.back());
        }
    }
    for (const auto& n : run.nodes) {
        const auto it = m_index.find(n.node);
        if (it == m_index.end() || !m_tracks[it->second].spans.empty() || !isFinal(n.result.status))
            continue;
        m_tracks[it->second].before = n.result.status;
        m_tracks[it->second].beforeFromUs = n.finishedUs >= 0 ? n.finishedUs : runEndUs;
    }
}

Status ReplayStates::stateOf(const Track& track, int64_t atUs)
{
    const auto started = std::upper_bound(track.spans.begin(), track.spans.end(), atUs,
                                          [](int64_t t, const Interval& s) { return t < s.startUs; }) -
                         track.spans.begin();
    if (started == 0)
        return track.beforeFromUs >= 0 && atUs >= track.beforeFromUs ? track.before : Status::Queued;
    const Interval& span = track.spans[track.latest[size_t(started - 1)]];
    if (span.endUs > atUs || span.open)
        return Status::Running;
    return span.status;
}

Status ReplayStates::stateAt(const NodeId& node, int64_t atUs) const
{
    const auto it = m_index.find(node);
    return it == m_index.end() ? Status::Queued : stateOf(m_tracks[it->second], atUs);
}

NodeStates ReplayStates::statesAt(int64_t atUs) const
{
    NodeStates states;
    for (const auto& t : m_tracks)
        states.emplace(t.node, stateOf(t, atUs));
    return states;
}

} // namespace conclave
