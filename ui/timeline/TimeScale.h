#pragma once

#include <QString>

#include <cstdint>

namespace conclave::ui {

// The time axis's scale at a zoom: ticks a 1-2-5 step apart and at least
// `minPixels` apart, and the unit (s, ms or µs) its labels are written in.
// The QtCharts axis (TimeAxisView) and the lanes' grid lines (TimelineRenderer)
// both take their ticks from it, so the grid continues the axis exactly.
struct TimeScale {
    int64_t stepUs = 1; // between two ticks; ticks are the multiples of it
    int64_t unitUs = 1; // 1'000'000 for s, 1'000 for ms, 1 for µs
    int decimals = 0;   // shown after the point, in the unit
    QString suffix;     // "s", "ms" or "µs"

    static TimeScale at(double usPerPixel, int minPixels = 90);
    // The smallest 1-2-5 value (1, 2, 5, 10, 20 ... µs) that is at least `us`.
    static int64_t roundUp(double us);

    // `us` in the unit: the value the axis plots.
    double toUnit(int64_t us) const { return double(us) / double(unitUs); }
    // "1.5 s", "20 ms", "300 µs".
    QString label(int64_t us) const;
    // The same label as a QValueAxis label format: "%.1f s".
    QString labelFormat() const;
};

} // namespace conclave::ui
