#include "experiment/ParetoChart.h"

#include "experiment/PointLabels.h"

#include "timeline/ChartStyle.h"
#include "timeline/ChartAxes.h"

#include "conclave/experiment/ReportText.h"
#include "conclave/util/MoneyText.h"

#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QCursor>
#include <QGraphicsSimpleTextItem>
#include <QHBoxLayout>
#include <QLabel>
#include <QLegendMarker>
#include <QLineSeries>
#include <QScatterSeries>
#include <QToolTip>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <utility>

namespace conclave::ui {

namespace {

// Distinct hues that read on light and dark backgrounds; the status colours stay for statuses.
QColor designColour(int i)
{
    static const QColor colours[] = {QColor(0x1e, 0x88, 0xe5), QColor(0x8e, 0x24, 0xaa), QColor(0x00, 0x89, 0x7b),
                                     QColor(0xf4, 0x51, 0x1e), QColor(0x6d, 0x4c, 0x41), QColor(0xc0, 0xca, 0x33),
                                     QColor(0xd8, 0x1b, 0x60), QColor(0x54, 0x6e, 0x7a)};
    return colours[size_t(i) % std::size(colours)];
}

bool finite(const Interval& ci)
{
    return std::isfinite(ci.lo) && std::isfinite(ci.hi);
}

} // namespace

ParetoChart::ParetoChart(QWidget* parent) : QWidget(parent), m_axisBox(new QComboBox(this))
{
    m_axisBox->addItem(tr("Accuracy vs mean cost per trial"), int(Axis::Cost));
    m_axisBox->addItem(tr("Accuracy vs p95 wall time"), int(Axis::Latency));
    auto* chart = new QChart;
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->legend()->setAlignment(Qt::AlignBottom);
    m_view = new QChartView(chart, this);
    m_view->setRenderHint(QPainter::Antialiasing);
    m_view->setMinimumSize(320, 200);

    auto* bar = new QHBoxLayout;
    bar->addWidget(new QLabel(tr("Trade-off:"), this));
    bar->addWidget(m_axisBox);
    bar->addStretch(1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(bar);
    layout->addWidget(m_view, 1);
    connect(m_axisBox, &QComboBox::currentIndexChanged, this,
            [this] { setAxis(Axis(m_axisBox->currentData().toInt())); });
    connect(chart, &QChart::plotAreaChanged, this, &ParetoChart::placeLabels);
}

QChart* ParetoChart::chart() const
{
    return m_view->chart();
}

void ParetoChart::setSummary(ExperimentSummary summary)
{
    m_summary = std::move(summary);
    rebuild();
}

void ParetoChart::setAxis(Axis axis)
{
    m_axis = axis;
    m_axisBox->setCurrentIndex(m_axisBox->findData(int(axis)));
    rebuild();
}

double ParetoChart::xOf(const DesignSummary& d) const
{
    return m_axis == Axis::Cost ? d.meanCostUsd : d.wallMs.p95 / 1000.0;
}

QString ParetoChart::pointText(int design) const
{
    if (design < 0 || size_t(design) >= m_summary.designs.size())
        return {};
    const auto& d = m_summary.designs[size_t(design)];
    const bool onFrontier = m_axis == Axis::Cost ? d.paretoCost : d.paretoLatency;
    QString text = QString::fromStdString(d.name) + (design == m_summary.baseline ? tr(" (baseline)") : QString());
    text += tr("\naccuracy %1 %2")
                .arg(QString::fromStdString(ReportText::percent(d.overall.accuracy)),
                     QString::fromStdString(ReportText::ciText(d.overall.ci)));
    if (d.vsBaseline)
        text += tr("\nvs baseline %1").arg(QString::fromStdString(ReportText::delta(d)));
    text += tr("\ncost/trial %1, p50 wall %2, p95 wall %3")
                .arg(QString::fromStdString(moneyText(d.meanCostUsd)),
                     QString::fromStdString(ReportText::duration(d.wallMs.p50)),
                     QString::fromStdString(ReportText::duration(d.wallMs.p95)));
    text += tr("\n%1 trials, %2 failed").arg(d.overall.trials).arg(d.failed);
    if (onFrontier)
        text += tr("\non the frontier");
    return text;
}

void ParetoChart::rebuild()
{
    QChart* c = chart();
    for (auto* label : m_labels)
        delete label;
    m_labels.clear();
    m_points.clear();
    c->removeAllSeries();
    for (auto* axis : c->axes())
        c->removeAxis(axis);
    m_frontier.clear();
    // No title: the trade-off box above names what is drawn, and the plot gets the height.

    auto* x = new QValueAxis;
    auto* y = new QValueAxis;
    c->addAxis(x, Qt::AlignBottom);
    c->addAxis(y, Qt::AlignLeft);
    const auto attach = [&](QAbstractSeries* s) {
        c->addSeries(s);
        s->attachAxis(x);
        s->attachAxis(y);
    };
    const auto hideFromLegend = [&](QAbstractSeries* s) {
        for (auto* marker : c->legend()->markers(s))
            marker->setVisible(false);
    };

    const auto& designs = m_summary.designs;
    // The frontier first, so the points and their names are drawn over its line.
    for (size_t i = 0; i < designs.size(); ++i)
        if (designs[i].overall.trials > 0 && (m_axis == Axis::Cost ? designs[i].paretoCost : designs[i].paretoLatency))
            m_frontier.push_back(int(i));
    std::sort(m_frontier.begin(), m_frontier.end(), [&](int a, int b) {
        const double xa = xOf(designs[size_t(a)]), xb = xOf(designs[size_t(b)]);
        return xa != xb ? xa < xb : designs[size_t(a)].overall.accuracy < designs[size_t(b)].overall.accuracy;
    });
    if (m_frontier.size() > 1) {
        auto* line = new QLineSeries;
        line->setName(tr("frontier"));
        for (const int d : m_frontier)
            line->append(xOf(designs[size_t(d)]), designs[size_t(d)].overall.accuracy * 100);
        QPen pen(QColor(0x75, 0x75, 0x75), 1.5, Qt::DashLine);
        line->setPen(pen);
        attach(line);
    }

    double xMax = 0, yLo = 100;
    for (size_t i = 0; i < designs.size(); ++i) {
        const auto& d = designs[i];
        if (d.overall.trials == 0)
            continue;
        const double px = xOf(d), py = d.overall.accuracy * 100;
        xMax = std::max(xMax, px);
        yLo = std::min(yLo, py);
        const QColor colour = designColour(int(i));
        if (finite(d.overall.ci)) {
            auto* bar = new QLineSeries;
            bar->append(px, d.overall.ci.lo * 100);
            bar->append(px, d.overall.ci.hi * 100);
            bar->setPen(QPen(colour, 2));
            attach(bar);
            hideFromLegend(bar);
            yLo = std::min(yLo, d.overall.ci.lo * 100);
        }
        const bool baseline = int(i) == m_summary.baseline;
        auto* point = new QScatterSeries;
        point->setName(QString::fromStdString(d.name) + (baseline ? tr(" (baseline)") : QString()));
        point->append(px, py);
        point->setColor(colour);
        point->setBorderColor(baseline ? palette().color(QPalette::Text) : colour);
        point->setMarkerShape(baseline ? QScatterSeries::MarkerShapeRectangle : QScatterSeries::MarkerShapeCircle);
        point->setMarkerSize(baseline ? 16 : 12);
        attach(point);
        // Named on the chart, not in a legend that would elide long names.
        auto* label = new QGraphicsSimpleTextItem(point->name(), c);
        label->setZValue(10);
        m_labels.push_back(label);
        m_points.push_back(point);
        hideFromLegend(point);
        const int design = int(i);
        connect(point, &QScatterSeries::hovered, this, [this, design](const QPointF&, bool state) {
            if (state)
                QToolTip::showText(QCursor::pos(), pointText(design), m_view);
            else
                QToolTip::hideText();
        });
    }
    // Room to the right of the last point and above 100 % for the points' names.
    const double xTop = xMax > 0 ? xMax * 1.3 : 1;
    const double xStep = ChartAxes::roundStep(xTop);
    x->setTitleText(m_axis == Axis::Cost ? tr("mean cost per trial (USD)") : tr("p95 wall time (s)"));
    ChartAxes::roundTicks(x, 0, xTop, xStep, m_axis == Axis::Cost ? QStringLiteral("$") : QString(),
                          m_axis == Axis::Cost ? QString() : QStringLiteral(" s"));
    const double yBottom = std::max(0.0, std::floor(yLo / 10) * 10);
    const double yStep = ChartAxes::roundStep(100 - yBottom);
    y->setTitleText(tr("accuracy (%)"));
    ChartAxes::roundTicks(y, yBottom, 100 + yStep * 0.6, yStep, {}, QStringLiteral("%"));
    ChartStyle::apply(c, palette());
    for (auto* label : m_labels) {
        label->setBrush(palette().color(QPalette::Text));
        label->setFont(x->labelsFont());
    }
    placeLabels();
}

// In design order (PointLabels), clear of the axes' labels and titles.
void ParetoChart::placeLabels()
{
    QChart* c = chart();
    std::vector<QPointF> at;
    for (auto* point : m_points)
        at.push_back(c->mapToPosition(point->at(0), point));
    PointLabels::place(m_labels, at, c->plotArea());
}

} // namespace conclave::ui
