#pragma once

class QChart;
class QPalette;

namespace conclave::ui {

// Draws a chart in the window's theme (ThemeManager's palette): its
// background the base colour, titles, labels and legend in the text colour,
// grid lines faint. Call once its axes are attached.
struct ChartStyle {
    static void apply(QChart* chart, const QPalette& palette);
};

} // namespace conclave::ui
