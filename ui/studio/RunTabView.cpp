#include "studio/RunTabView.h"

#include "timeline/LatencyBoxPlot.h"
#include "timeline/ReplayView.h"
#include "timeline/RunView.h"

#include <QChartView>

namespace conclave::ui {

RunTabView RunTabView::of(QWidget* tab)
{
    RunTabView found;
    found.chart = tab;
    if (auto* run = qobject_cast<RunView*>(tab)) {
        found.model = run->timelineModel();
        found.timeline = run->timeline();
        found.live = run->isLive();
    } else if (auto* replay = qobject_cast<ReplayView*>(tab)) {
        found.model = replay->timelineModel();
        found.timeline = replay->timeline();
        found.replay = replay->controller();
    } else if (auto* plot = qobject_cast<LatencyBoxPlot*>(tab)) {
        found.chart = plot->chartView();
    }
    return found;
}

} // namespace conclave::ui
