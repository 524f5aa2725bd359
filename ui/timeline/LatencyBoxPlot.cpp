#include "timeline/LatencyBoxPlot.h"

#include "timeline/ChartAxes.h"
#include "timeline/ThemedChartView.h"

#include <QBarCategoryAxis>
#include <QBoxPlotSeries>
#include <QBoxSet>
#include <QChart>
#include <QChartView>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <utility>

namespace conclave::ui {

LatencyBoxPlot::LatencyBoxPlot(QWidget* parent) : QWidget(parent)
{
    auto* chart = new QChart;
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->legend()->hide();
    m_view = new ThemedChartView(chart, this);
    m_view->setMinimumSize(360, 260);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_view);
}

QChart* LatencyBoxPlot::chart() const
{
    return m_view->chart();
}

void LatencyBoxPlot::setRuns(const std::vector<StoredRun>& runs, const QString& title)
{
    setBoxes(LatencyDistribution::perAgent(runs),
             title.isEmpty() ? tr("Latency per agent over %1 runs").arg(runs.size()) : title);
}

void LatencyBoxPlot::setBoxes(std::vector<AgentLatency> boxes, const QString& title)
{
    m_boxes = std::move(boxes);
    QChart* c = chart();
    c->removeAllSeries();
    for (auto* axis : c->axes())
        c->removeAxis(axis);
    c->setTitle(title);
    auto* series = new QBoxPlotSeries;
    series->setBrush(QColor(0x90, 0xca, 0xf9));
    series->setPen(QPen(QColor(0x15, 0x65, 0xc0), 1.2));
    double topMs = 0;
    for (const auto& b : m_boxes)
        topMs = std::max(topMs, b.max);
    // Seconds once the longest reaches ten of them: "40 s", not "40000".
    const bool seconds = topMs >= 10000;
    const double scale = seconds ? 1e-3 : 1;
    QStringList names;
    for (const auto& b : m_boxes) {
        const QString name = QString::fromStdString(b.node.str());
        series->append(new QBoxSet(b.min * scale, b.q1 * scale, b.median * scale, b.q3 * scale, b.max * scale, name));
        names << name;
    }
    c->addSeries(series);
    auto* x = ChartAxes::agents(names);
    auto* y = ChartAxes::amounts(topMs * scale, seconds ? tr("s") : tr("ms"));
    c->addAxis(x, Qt::AlignBottom);
    c->addAxis(y, Qt::AlignLeft);
    series->attachAxis(x);
    series->attachAxis(y);
    m_view->restyle();
}

} // namespace conclave::ui
