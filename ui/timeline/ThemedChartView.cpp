#include "timeline/ThemedChartView.h"

#include "timeline/ChartStyle.h"

#include <QEvent>

namespace conclave::ui {

ThemedChartView::ThemedChartView(QChart* chart, QWidget* parent) : QChartView(chart, parent)
{
    setRenderHint(QPainter::Antialiasing);
    restyle();
}

void ThemedChartView::restyle()
{
    ChartStyle::apply(chart(), palette());
}

void ThemedChartView::changeEvent(QEvent* event)
{
    QChartView::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        restyle();
}

} // namespace conclave::ui
