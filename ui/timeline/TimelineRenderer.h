#pragma once

#include "timeline/TimelineModel.h"
#include "timeline/TimelineViewport.h"

#include <cstdint>

class QPainter;
class QPalette;

namespace conclave::ui {

// Draws a TimelineModel through a viewport in separate passes — lanes and
// grid, bars (level of detail), segments and marks, critical path, a ghost
// (a what-if's projection over the run), replay shading, labels, playhead —
// reading only the models' numbers. The time axis
// is not drawn here: TimeAxisView is a QtCharts axis over the lanes. Stateless;
// used by the view, by screenshots and by the benchmark.
class TimelineRenderer {
public:
    struct State {
        int64_t playheadUs = -1; // -1: no playhead
        int selectedLane = -1;
        int hoverBar = -1;
        const QPalette* palette = nullptr; // the theme's; nullptr: the application's
        // A second run drawn ghosted over the first on the same lanes (matched by node), its critical
        // path highlighted instead of the first's: a what-if's projection (ui/whatif/). nullptr: none.
        const TimelineModel* ghost = nullptr;
    };

    static void paint(QPainter& p, const TimelineModel& model, const TimelineViewport& vp, const State& state);

private:
    static void paintLanes(QPainter& p, const TimelineModel& model, const TimelineViewport& vp, const State& state);
    static void paintBars(QPainter& p, const TimelineModel& model, const TimelineViewport& vp, const State& state);
    static void paintDetail(QPainter& p, const TimelineModel& model, const TimelineViewport& vp, int bar,
                            const State& state);
    static void paintGhost(QPainter& p, const TimelineModel& model, const TimelineViewport& vp, const State& state);
    static void paintReplay(QPainter& p, const TimelineModel& model, const TimelineViewport& vp, const State& state);
    static void paintLabels(QPainter& p, const TimelineModel& model, const TimelineViewport& vp, const State& state);
};

} // namespace conclave::ui
