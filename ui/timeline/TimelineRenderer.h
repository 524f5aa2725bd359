#pragma once

#include "timeline/TimelineModel.h"
#include "timeline/TimelineViewport.h"

#include <cstdint>

class QPainter;

namespace conclave::ui {

// Draws a TimelineModel through a viewport in separate passes — lanes, bars
// (level of detail), segments and marks, critical path, replay shading, axis,
// labels, playhead — reading only the model's numbers. Stateless; used by the
// view, by screenshots and by the benchmark (which paints into an image).
class TimelineRenderer {
public:
    struct State {
        int64_t playheadUs = -1;  // -1: no playhead
        int selectedLane = -1;
        int hoverBar = -1;
    };

    static void paint(QPainter& p, const TimelineModel& model, const TimelineViewport& vp, const State& state);
    // Axis ticks: a 1-2-5 step at least `minPixels` apart.
    static int64_t tickStep(double usPerPixel, int minPixels = 90);

private:
    static void paintLanes(QPainter& p, const TimelineModel& model, const TimelineViewport& vp, const State& state);
    static void paintBars(QPainter& p, const TimelineModel& model, const TimelineViewport& vp, const State& state);
    static void paintDetail(QPainter& p, const TimelineModel& model, const TimelineViewport& vp, int bar);
    static void paintReplay(QPainter& p, const TimelineModel& model, const TimelineViewport& vp, const State& state);
    static void paintAxis(QPainter& p, const TimelineViewport& vp);
    static void paintLabels(QPainter& p, const TimelineModel& model, const TimelineViewport& vp, const State& state);
};

} // namespace conclave::ui
