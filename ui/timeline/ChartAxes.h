#pragma once

#include <QString>
#include <QStringList>

class QBarCategoryAxis;
class QValueAxis;

namespace conclave::ui {

// The axes every chart of the studio uses, built one way: agent names along
// the bottom (slanted when there are many, elided past kNameChars), amounts
// from 0 up, with ticks on round steps (1, 2 or 5 times a power of ten)
// labelled with as many decimals as the step needs.
struct ChartAxes {
    static constexpr int kNameChars = 14;

    static QBarCategoryAxis* agents(const QStringList& names);
    // A name as the category axis shows it: at most kNameChars, elided with "…".
    static QString shortName(const QString& name);
    // From 0 to a round step at or above a tenth over `top`; `title` and `prefix` ("$") may be empty.
    static QValueAxis* amounts(double top, const QString& title = {}, const QString& prefix = {});
    // A round step near a fifth (1/`ticks`) of the span.
    static double roundStep(double span, int ticks = 5);
    // `lo` to `hi` with ticks on the multiples of `step`, labelled "PREFIX1.5SUFFIX".
    static void roundTicks(QValueAxis* axis, double lo, double hi, double step, const QString& prefix = {},
                           const QString& suffix = {});
};

} // namespace conclave::ui
