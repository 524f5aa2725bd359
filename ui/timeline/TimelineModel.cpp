#include "timeline/TimelineModel.h"

#include "conclave/analysis/StatusSeverity.h"
#include "conclave/io/TeamJson.h"
#include "conclave/model/NodeKind.h"

#include <algorithm>
#include <set>
#include <unordered_map>

namespace conclave::ui {

TimelineModel::TimelineModel(StoredRun run) : m_run(std::move(run))
{
    m_endUs = std::max<int64_t>(m_run.summary.wallUs, 0);
    for (const auto& s : m_run.spans)
        m_endUs = std::max(m_endUs, std::max(s.startUs, s.endUs));
    buildLanes();
    buildBars();
}

void TimelineModel::buildLanes()
{
    std::unordered_map<NodeId, int> index;
    const auto loaded = teamFromJsonText(m_run.teamJson);
    if (loaded.team) {
        for (const auto& node : loaded.team->nodes) {
            if (index.contains(node.id))
                continue;
            index.emplace(node.id, laneCount());
            m_lanes.push_back({node.id, node.displayName(), std::string(toString(node.kind)),
                               node.config.call.model.value_or(std::string())});
        }
    }
    for (const auto& s : m_run.spans) {
        if (index.contains(s.node))
            continue;
        index.emplace(s.node, laneCount());
        m_lanes.push_back({s.node, s.node.str(), {}, s.model});
    }
}

void TimelineModel::buildBars()
{
    std::unordered_map<NodeId, int> laneIndex;
    for (int i = 0; i < laneCount(); ++i)
        laneIndex.emplace(m_lanes[size_t(i)].node, i);
    const std::set<NodeId> critical(m_run.criticalPath.begin(), m_run.criticalPath.end());

    // Span ids are 1-based positions, but a loaded run need not be dense: map them.
    std::unordered_map<SpanId, uint32_t> byId;
    byId.reserve(m_run.spans.size());
    for (uint32_t i = 0; i < m_run.spans.size(); ++i)
        byId.emplace(m_run.spans[i].id, i);

    m_bars.reserve(m_run.spans.size());
    for (uint32_t i = 0; i < m_run.spans.size(); ++i) {
        const Span& s = m_run.spans[i];
        if (s.kind != SpanKind::Node)
            continue;
        Bar b;
        b.lane = laneIndex.at(s.node);
        b.startUs = s.startUs;
        b.durationUs = (s.endUs >= 0 ? s.endUs : std::max(m_endUs, s.startUs)) - s.startUs;
        b.status = s.status;
        b.span = i;
        if (s.endUs < 0)
            b.flags |= Open;
        if (s.status == Status::Cancelled)
            b.flags |= CutShort;
        if (s.parent != 0)
            b.flags |= Member;
        else if (critical.contains(s.node))
            b.flags |= Critical;
        m_bars.push_back(b);
    }
    std::sort(m_bars.begin(), m_bars.end(), [](const Bar& a, const Bar& b) {
        return a.lane != b.lane ? a.lane < b.lane : a.startUs != b.startUs ? a.startUs < b.startUs : a.span < b.span;
    });
    m_laneBegin.assign(size_t(laneCount()) + 1, 0);
    m_laneMaxDuration.assign(size_t(laneCount()), 0);
    for (const auto& b : m_bars) {
        ++m_laneBegin[size_t(b.lane) + 1];
        m_laneMaxDuration[size_t(b.lane)] = std::max(m_laneMaxDuration[size_t(b.lane)], b.durationUs);
    }
    for (size_t i = 1; i < m_laneBegin.size(); ++i)
        m_laneBegin[i] += m_laneBegin[i - 1];

    // Attempts and rounds belong to the nearest node span of the same node above them.
    std::unordered_map<uint32_t, uint32_t> barOfSpan;
    barOfSpan.reserve(m_bars.size());
    for (uint32_t b = 0; b < m_bars.size(); ++b)
        barOfSpan.emplace(m_bars[b].span, b);
    std::vector<std::pair<uint32_t, Segment>> owned;
    std::vector<std::pair<uint32_t, int64_t>> ttft;
    for (uint32_t i = 0; i < m_run.spans.size(); ++i) {
        const Span& s = m_run.spans[i];
        if (s.kind == SpanKind::Node)
            continue;
        const Span* up = &s;
        std::optional<uint32_t> owner;
        for (size_t guard = 0; guard < 64 && up->parent != 0; ++guard) {
            const auto it = byId.find(up->parent);
            if (it == byId.end())
                break;
            up = &m_run.spans[it->second];
            if (up->kind == SpanKind::Node && up->node == s.node) {
                owner = barOfSpan.at(it->second);
                break;
            }
        }
        if (!owner)
            continue;
        const int64_t end = s.endUs >= 0 ? s.endUs : m_bars[*owner].endUs();
        owned.push_back({*owner, Segment{s.startUs, std::max<int64_t>(end - s.startUs, 0), s.status, s.kind, i}});
        if (s.kind == SpanKind::Attempt && s.ttftUs >= 0)
            ttft.emplace_back(*owner, s.startUs + s.ttftUs);
    }
    std::sort(owned.begin(), owned.end(), [](const auto& a, const auto& b) {
        return a.first != b.first ? a.first < b.first
             : a.second.startUs != b.second.startUs ? a.second.startUs < b.second.startUs
                                                    : a.second.span < b.second.span;
    });
    m_segments.reserve(owned.size());
    for (const auto& [bar, segment] : owned) {
        auto& b = m_bars[bar];
        if (b.segmentCount == 0)
            b.firstSegment = uint32_t(m_segments.size());
        ++b.segmentCount;
        m_segments.push_back(segment);
    }
    m_marks.reserve(ttft.size());
    for (const auto& [bar, at] : ttft)
        m_marks.push_back({m_bars[bar].lane, at, bar});
    std::sort(m_marks.begin(), m_marks.end(), [](const Mark& a, const Mark& b) {
        return a.lane != b.lane ? a.lane < b.lane : a.atUs < b.atUs;
    });
}

int TimelineModel::laneOf(const NodeId& node) const
{
    for (int i = 0; i < laneCount(); ++i) {
        if (m_lanes[size_t(i)].node == node)
            return i;
    }
    return -1;
}

std::span<const TimelineModel::Bar> TimelineModel::barsInLane(int lane) const
{
    return {m_bars.data() + m_laneBegin[size_t(lane)], m_laneBegin[size_t(lane) + 1] - m_laneBegin[size_t(lane)]};
}

std::span<const TimelineModel::Segment> TimelineModel::segments(int bar) const
{
    const auto& b = m_bars[size_t(bar)];
    return {m_segments.data() + b.firstSegment, b.segmentCount};
}

std::vector<int> TimelineModel::barsOfNode(const NodeId& node) const
{
    std::vector<int> out;
    const int lane = laneOf(node);
    if (lane < 0)
        return out;
    for (uint32_t i = m_laneBegin[size_t(lane)]; i < m_laneBegin[size_t(lane) + 1]; ++i)
        out.push_back(int(i));
    return out;
}

size_t TimelineModel::firstVisible(int lane, int64_t fromUs) const
{
    // A bar that ends after fromUs starts after fromUs - (the lane's longest bar).
    const auto bars = barsInLane(lane);
    const int64_t earliest = fromUs - m_laneMaxDuration[size_t(lane)];
    const auto it = std::lower_bound(bars.begin(), bars.end(), earliest,
                                     [](const Bar& b, int64_t t) { return b.startUs < t; });
    return m_laneBegin[size_t(lane)] + size_t(it - bars.begin());
}

int TimelineModel::barAt(int lane, int64_t timeUs, int64_t toleranceUs) const
{
    if (lane < 0 || lane >= laneCount())
        return -1;
    int found = -1;
    const size_t end = m_laneBegin[size_t(lane) + 1];
    for (size_t i = firstVisible(lane, timeUs - toleranceUs); i < end; ++i) {
        const Bar& b = m_bars[i];
        if (b.startUs > timeUs + toleranceUs)
            break;
        if (b.startUs - toleranceUs <= timeUs && timeUs <= b.endUs() + toleranceUs)
            found = int(i);
    }
    return found;
}

std::vector<TimelineModel::DrawItem> TimelineModel::levelOfDetail(int lane, int64_t fromUs, int64_t toUs,
                                                                  double usPerPixel) const
{
    std::vector<DrawItem> out;
    if (lane < 0 || lane >= laneCount())
        return out;
    const size_t end = m_laneBegin[size_t(lane) + 1];
    DrawItem merged;
    auto flush = [&] {
        if (merged.count > 0)
            out.push_back(merged);
        merged = DrawItem{};
    };
    for (size_t i = firstVisible(lane, fromUs); i < end; ++i) {
        const Bar& b = m_bars[i];
        if (b.startUs > toUs)
            break;
        if (b.endUs() < fromUs)
            continue;
        const bool critical = (b.flags & Critical) != 0;
        if (double(b.durationUs) >= usPerPixel) {
            flush();
            out.push_back({b.startUs, b.endUs(), int(i), 1, b.status, critical});
            continue;
        }
        if (merged.count > 0 && double(b.startUs - merged.endUs) < usPerPixel) {
            merged.endUs = std::max(merged.endUs, b.endUs());
            ++merged.count;
            merged.status = StatusSeverity::worse(merged.status, b.status);
            merged.critical = merged.critical || critical;
            continue;
        }
        flush();
        merged = {b.startUs, b.endUs(), int(i), 1, b.status, critical};
    }
    flush();
    return out;
}

} // namespace conclave::ui
