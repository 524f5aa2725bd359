#pragma once

#include <QColor>

class QPalette;

namespace conclave::ui {

// The colours of the lanes and of the time axis above them, in the window's
// theme: the base colour with a touch of the text colour, so they read on
// light and dark alike (the status and kind colours are the same in both).
struct TimelineColours {
    QColor lane;     // the plot's background, and the ruler strip below the axis labels
    QColor altLane;  // every other lane
    QColor selected; // the selected node's lane
    QColor grid;     // the time grid, continued from the axis ticks
    QColor labels;   // the lane names' column, and the axis's label band
    QColor rule;     // the line between the names and the plot, and the axis line
    QColor text;
    QColor fade; // over what has not happened yet at a replay's playhead

    static TimelineColours of(const QPalette& palette);
    // `a` moved `amount` (0..1) of the way to `b`.
    static QColor mix(const QColor& a, const QColor& b, double amount);
};

} // namespace conclave::ui
