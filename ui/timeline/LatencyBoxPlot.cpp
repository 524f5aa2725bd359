#include "timeline/LatencyBoxPlot.h"

#include "timeline/ChartAxes.h"

#include "conclave/store/RunAnalysis.h"
#include "conclave/store/RunQueries.h"

#include <QBarCategoryAxis>
#include <QBoxPlotSeries>
#include <QBoxSet>
#include <QChart>
#include <QChartView>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <map>

namespace conclave::ui {

LatencyBoxPlot::LatencyBoxPlot(QWidget* parent) : QWidget(parent)
{
    auto* chart = new QChart;
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->legend()->hide();
    m_view = new QChartView(chart, this);
    m_view->setRenderHint(QPainter::Antialiasing);
    m_view->setMinimumSize(360, 260);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_view);
}

QChart* LatencyBoxPlot::chart() const
{
    return m_view->chart();
}

double LatencyBoxPlot::quantile(const std::vector<double>& sorted, double p)
{
    if (sorted.empty())
        return 0;
    const double h = double(sorted.size() - 1) * p;
    const auto lo = size_t(std::floor(h));
    const auto hi = std::min(lo + 1, sorted.size() - 1);
    return sorted[lo] + (h - double(lo)) * (sorted[hi] - sorted[lo]);
}

std::vector<LatencyBoxPlot::Box> LatencyBoxPlot::distribution(const std::vector<StoredRun>& runs)
{
    std::vector<NodeId> order;
    std::map<NodeId, std::vector<double>> samples;
    for (const auto& run : runs) {
        for (const auto& st : RunAnalysis::of(run).agents) {
            if (!samples.contains(st.node))
                order.push_back(st.node);
            auto& v = samples[st.node];
            if (st.wallUs > 0 || st.calls > 0)
                v.push_back(double(st.wallUs) / 1000.0);
        }
    }
    std::vector<Box> boxes;
    for (const auto& node : order) {
        auto v = samples[node];
        if (v.empty())
            continue;
        std::sort(v.begin(), v.end());
        boxes.push_back(
            {node, int(v.size()), v.front(), quantile(v, 0.25), quantile(v, 0.5), quantile(v, 0.75), v.back()});
    }
    return boxes;
}

std::vector<StoredRun> LatencyBoxPlot::lastRuns(RunQueries& queries, const std::string& team, int n, std::string& error)
{
    std::vector<StoredRun> runs;
    RunFilter filter;
    filter.team = team;
    const auto list = queries.list(filter, error);
    if (!list)
        return runs;
    for (const auto& summary : *list) {
        if (summary.status == RunStatus::Running || int(runs.size()) >= n)
            continue;
        if (auto run = queries.load(summary.id, false, error))
            runs.push_back(std::move(*run));
        else
            return {};
    }
    return runs;
}

void LatencyBoxPlot::setRuns(const std::vector<StoredRun>& runs, const QString& title)
{
    m_boxes = distribution(runs);
    QChart* c = chart();
    c->removeAllSeries();
    for (auto* axis : c->axes())
        c->removeAxis(axis);
    c->setTitle(title.isEmpty() ? tr("Latency per agent over %1 runs (ms)").arg(runs.size()) : title);
    auto* series = new QBoxPlotSeries;
    series->setBrush(QColor(0x90, 0xca, 0xf9));
    series->setPen(QPen(QColor(0x15, 0x65, 0xc0), 1.2));
    QStringList names;
    double top = 0;
    for (const auto& b : m_boxes) {
        const QString name = QString::fromStdString(b.node.str());
        series->append(new QBoxSet(b.min, b.q1, b.median, b.q3, b.max, name));
        names << name;
        top = std::max(top, b.max);
    }
    c->addSeries(series);
    auto* x = ChartAxes::agents(names);
    auto* y = ChartAxes::amounts(top, QStringLiteral("%.0f"), tr("ms"));
    c->addAxis(x, Qt::AlignBottom);
    c->addAxis(y, Qt::AlignLeft);
    series->attachAxis(x);
    series->attachAxis(y);
}

} // namespace conclave::ui
