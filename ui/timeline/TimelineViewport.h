#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace conclave::ui {

// Where the timeline is looking: the time at the left edge of the plot, the
// scale, the vertical scroll, and the widget's size. Maps time to x and y to
// lanes. The lanes start at the top: the time axis above them is a
// TimeAxisView whose plot area is [kLabelWidth, width).
struct TimelineViewport {
    static constexpr int kLabelWidth = 150;
    static constexpr int kLaneHeight = 26;

    int64_t startUs = 0;
    double usPerPixel = 1000;
    int scrollY = 0;
    int width = 800;
    int height = 300;

    int plotWidth() const { return std::max(1, width - kLabelWidth); }
    int64_t endUs() const { return startUs + int64_t(std::llround(plotWidth() * usPerPixel)); }
    double xOf(int64_t us) const { return kLabelWidth + double(us - startUs) / usPerPixel; }
    int64_t usAt(double x) const { return startUs + int64_t(std::llround((x - kLabelWidth) * usPerPixel)); }
    int laneTop(int lane) const { return lane * kLaneHeight - scrollY; }
    // The lane under y, or -1 above the widget.
    int laneAt(int y) const { return y < 0 ? -1 : (y + scrollY) / kLaneHeight; }
};

} // namespace conclave::ui
