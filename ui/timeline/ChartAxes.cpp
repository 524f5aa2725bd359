#include "timeline/ChartAxes.h"

#include <QBarCategoryAxis>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace conclave::ui {

QBarCategoryAxis* ChartAxes::agents(const QStringList& names)
{
    auto* axis = new QBarCategoryAxis;
    QStringList shown;
    for (const QString& name : names)
        shown << shortName(name);
    axis->append(shown);
    axis->setLabelsAngle(names.size() > 6 ? -60 : 0);
    // Slanted names are not cut to their category's width (QtCharts would leave "…"); they are short already.
    axis->setTruncateLabels(names.size() <= 6);
    return axis;
}

QString ChartAxes::shortName(const QString& name)
{
    return name.size() <= kNameChars ? name : name.left(kNameChars - 1) + QStringLiteral("…");
}

QValueAxis* ChartAxes::amounts(double top, const QString& title, const QString& prefix)
{
    auto* axis = new QValueAxis;
    const double span = top > 0 ? top * 1.1 : 1;
    const double step = roundStep(span);
    roundTicks(axis, 0, std::ceil(span / step - 1e-9) * step, step, prefix);
    if (!title.isEmpty())
        axis->setTitleText(title);
    return axis;
}

double ChartAxes::roundStep(double span, int ticks)
{
    if (!(span > 0) || !std::isfinite(span))
        return 1;
    const double raw = span / std::max(1, ticks);
    const double power = std::pow(10.0, std::floor(std::log10(raw)));
    const double m = raw / power;
    return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * power;
}

void ChartAxes::roundTicks(QValueAxis* axis, double lo, double hi, double step, const QString& prefix,
                           const QString& suffix)
{
    axis->setRange(lo, hi);
    axis->setTickType(QValueAxis::TicksDynamic);
    axis->setTickAnchor(0);
    axis->setTickInterval(step);
    const int decimals = std::clamp(int(std::ceil(-std::log10(step) - 1e-9)), 0, 6);
    axis->setLabelFormat(prefix + QStringLiteral("%.%1f").arg(decimals) + suffix);
}

} // namespace conclave::ui
