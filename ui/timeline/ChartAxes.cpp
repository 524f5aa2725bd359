#include "timeline/ChartAxes.h"

#include <QBarCategoryAxis>
#include <QValueAxis>

namespace conclave::ui {

QBarCategoryAxis* ChartAxes::agents(const QStringList& names)
{
    auto* axis = new QBarCategoryAxis;
    axis->append(names);
    axis->setLabelsAngle(names.size() > 6 ? -45 : 0);
    return axis;
}

QValueAxis* ChartAxes::amounts(double top, const QString& format, const QString& title)
{
    auto* axis = new QValueAxis;
    axis->setRange(0, top > 0 ? top * 1.1 : 1);
    axis->setLabelFormat(format);
    if (!title.isEmpty())
        axis->setTitleText(title);
    return axis;
}

} // namespace conclave::ui
