#pragma once

#include "conclave/store/StoredRun.h"

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace conclave::ui {

// The timeline of one stored run, as numbers only: lanes, bars, segments and
// marks, each a row, a start, a duration and a type (a status).
//
// Promises: one lane per agent in team order (then any node the team does not
// name), a bar per node span sorted by lane then start, the call attempts and
// coordinator rounds of a bar as its segments, a time-to-first-token mark per
// streamed attempt, the critical path's bars flagged, and a level-of-detail
// query that merges bars narrower than a pixel so that 100,000 spans draw in
// time proportional to the pixels, not the spans. Immutable once built.
// Never paints, never knows about widgets: the render passes read it.
class TimelineModel {
public:
    enum BarFlag : uint8_t {
        Critical = 1,  // a top-level span of a node on the critical path
        CutShort = 2,  // a cancelled straggler: stopped before it finished
        Open = 4,      // never ended (an interrupted run): drawn up to the run's end
        Member = 8,    // a coordinator's member speaking inside a round
    };

    struct Lane {
        NodeId node;
        std::string label;  // the node's label, else its id
        std::string kind;   // node kind, empty when the team does not name the node
        std::string model;
    };
    struct Bar {
        int lane = 0;
        int64_t startUs = 0;
        int64_t durationUs = 0;
        Status status = Status::Running;
        uint8_t flags = 0;
        uint32_t span = 0;          // index into run().spans
        uint32_t firstSegment = 0;  // into segments()
        uint32_t segmentCount = 0;
        int64_t endUs() const { return startUs + durationUs; }
    };
    struct Segment {
        int64_t startUs = 0;
        int64_t durationUs = 0;
        Status status = Status::Running;
        SpanKind kind = SpanKind::Attempt;  // Attempt or Round
        uint32_t span = 0;
    };
    struct Mark {
        int lane = 0;
        int64_t atUs = 0;
        uint32_t bar = 0;
    };
    // One thing to draw at a given scale: a bar, or several narrow bars merged.
    struct DrawItem {
        int64_t startUs = 0;
        int64_t endUs = 0;
        int bar = -1;      // the bar when count == 1, else the first merged bar
        int count = 0;     // bars this item stands for
        Status status = Status::Running;  // the most severe status among them
        bool critical = false;
    };

    explicit TimelineModel(StoredRun run);

    const StoredRun& run() const { return m_run; }
    int64_t endUs() const { return m_endUs; }

    int laneCount() const { return int(m_lanes.size()); }
    const Lane& lane(int index) const { return m_lanes[size_t(index)]; }
    int laneOf(const NodeId& node) const;

    const std::vector<Bar>& bars() const { return m_bars; }
    std::span<const Bar> barsInLane(int lane) const;
    int firstBarInLane(int lane) const { return int(m_laneBegin[size_t(lane)]); }
    std::span<const Segment> segments(int bar) const;
    const std::vector<Mark>& ttftMarks() const { return m_marks; }
    const Span& span(int bar) const { return m_run.spans[m_bars[size_t(bar)].span]; }
    std::vector<int> barsOfNode(const NodeId& node) const;

    // The bar drawn at `timeUs` in `lane` (the latest-starting one when bars
    // overlap), within `toleranceUs` of its ends; -1 when none.
    int barAt(int lane, int64_t timeUs, int64_t toleranceUs = 0) const;

    // What to draw of `lane` between `fromUs` and `toUs` at `usPerPixel`: bars
    // at least a pixel wide as they are; consecutive narrower bars less than a
    // pixel apart merged into one item.
    std::vector<DrawItem> levelOfDetail(int lane, int64_t fromUs, int64_t toUs, double usPerPixel) const;

private:
    void buildLanes();
    void buildBars();
    size_t firstVisible(int lane, int64_t fromUs) const;

    StoredRun m_run;
    int64_t m_endUs = 0;
    std::vector<Lane> m_lanes;
    std::vector<Bar> m_bars;
    std::vector<uint32_t> m_laneBegin;     // laneCount() + 1 offsets into m_bars
    std::vector<int64_t> m_laneMaxDuration;
    std::vector<Segment> m_segments;
    std::vector<Mark> m_marks;
};

} // namespace conclave::ui
