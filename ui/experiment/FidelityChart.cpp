#include "experiment/FidelityChart.h"

#include "experiment/PointLabels.h"
#include "timeline/ChartAxes.h"
#include "timeline/ThemedChartView.h"

#include <QChart>
#include <QCursor>
#include <QEvent>
#include <QGraphicsSimpleTextItem>
#include <QLegendMarker>
#include <QLineSeries>
#include <QScatterSeries>
#include <QToolTip>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace conclave::ui {

namespace {

// Hues that read on light and dark backgrounds, apart from the warning amber and the status colours.
const QColor kSimulatedColour(0x1e, 0x88, 0xe5);
const QColor kReplayedColour(0xab, 0x47, 0xbc);

bool finite(const Interval& ci)
{
    return std::isfinite(ci.lo) && std::isfinite(ci.hi);
}

QString q(const std::string& text)
{
    return QString::fromStdString(text);
}

} // namespace

FidelityChart::FidelityChart(QWidget* parent) : QWidget(parent)
{
    auto* chart = new QChart;
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->legend()->setAlignment(Qt::AlignBottom);
    m_view = new ThemedChartView(chart, this);
    m_view->setMinimumSize(320, 240);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_view);
    // Made once and kept: axes removed from a chart that was never laid out stay drawn in its corner.
    m_x = new QValueAxis;
    m_y = new QValueAxis;
    m_x->setTitleText(tr("measured accuracy on tasks the calibration did not read (%)"));
    m_y->setTitleText(tr("predicted accuracy (%)"));
    chart->addAxis(m_x, Qt::AlignBottom);
    chart->addAxis(m_y, Qt::AlignLeft);
    connect(chart, &QChart::plotAreaChanged, this, &FidelityChart::placeLabels);
    rebuild();
}

QChart* FidelityChart::chart() const
{
    return m_view->chart();
}

void FidelityChart::setReport(const FidelityReport* report)
{
    m_report = report;
    rebuild();
}

void FidelityChart::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        rebuild(); // the names' and the diagonal's colours follow the theme's text
}

QString FidelityChart::pointText(int design, bool replayed) const
{
    if (!m_report || design < 0 || size_t(design) >= m_report->designs.size())
        return {};
    using C = FidelityReport::Column;
    const auto& d = m_report->designs[size_t(design)];
    const auto cells = FidelityReport::cells(d);
    const auto& p = replayed ? d.replayed : d.simulated;
    QString text = q(d.name);
    text += tr("\nmeasured %1").arg(q(cells[C::Measured]));
    if (replayed)
        text += tr("\nreplayed from the other designs' calls %1, z %2").arg(q(cells[C::Replayed]), q(cells[C::ReplayedZ]));
    else
        text += tr("\nsimulated %1, z %2\ncost %3, p50 wall %4, p95 wall %5 the measured")
                    .arg(q(cells[C::Simulated]), q(cells[C::SimulatedZ]), q(cells[C::CostRatio]),
                         q(cells[C::P50Ratio]), q(cells[C::P95Ratio]));
    if (p && !p->within)
        text += tr("\noutside 1.96 combined standard errors");
    return text;
}

void FidelityChart::rebuild()
{
    QChart* c = chart();
    for (auto* label : m_labels)
        delete label;
    m_labels.clear();
    m_labelled.clear();
    m_simulatedDesigns.clear();
    m_replayedDesigns.clear();
    c->removeAllSeries();
    const auto attach = [&](QAbstractSeries* s) {
        c->addSeries(s);
        s->attachAxis(m_x);
        s->attachAxis(m_y);
    };
    const auto hideFromLegend = [&](QAbstractSeries* s) {
        for (auto* marker : c->legend()->markers(s))
            marker->setVisible(false);
    };
    const QColor text = palette().color(QPalette::Text);

    // The diagonal first, so the bars and points are drawn over it; its ends once the range is known.
    m_diagonal = new QLineSeries;
    m_diagonal->setName(tr("predicted = measured"));
    QColor faint = text;
    faint.setAlpha(140);
    m_diagonal->setPen(QPen(faint, 1.2, Qt::DashLine));
    attach(m_diagonal);

    double lo = 100, hi = 0;
    const auto extend = [&](double value) {
        if (std::isfinite(value)) {
            lo = std::min(lo, value);
            hi = std::max(hi, value);
        }
    };
    // One series per kind of prediction, each point's two bars drawn in its colour, a little lighter.
    const auto addBars = [&](double mx, const Interval& mci, double py, const Interval& pci, QColor colour) {
        colour.setAlpha(170);
        if (finite(mci)) {
            auto* bar = new QLineSeries;
            bar->append(mci.lo * 100, py);
            bar->append(mci.hi * 100, py);
            bar->setPen(QPen(colour, 1.6));
            attach(bar);
            hideFromLegend(bar);
            extend(mci.lo * 100);
            extend(mci.hi * 100);
        }
        if (finite(pci)) {
            auto* bar = new QLineSeries;
            bar->append(mx, pci.lo * 100);
            bar->append(mx, pci.hi * 100);
            bar->setPen(QPen(colour, 1.6));
            attach(bar);
            hideFromLegend(bar);
            extend(pci.lo * 100);
            extend(pci.hi * 100);
        }
    };
    m_simulated = new QScatterSeries;
    m_simulated->setName(tr("simulated"));
    m_simulated->setColor(kSimulatedColour);
    m_simulated->setBorderColor(kSimulatedColour.darker(130));
    m_simulated->setMarkerShape(QScatterSeries::MarkerShapeCircle);
    m_simulated->setMarkerSize(11);
    m_replayed = new QScatterSeries;
    m_replayed->setName(tr("replayed from the other designs' calls"));
    m_replayed->setColor(kReplayedColour);
    m_replayed->setBorderColor(kReplayedColour.darker(130));
    m_replayed->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
    m_replayed->setMarkerSize(10);
    std::vector<int> labelled; // the designs named, in design order
    if (m_report) {
        for (size_t i = 0; i < m_report->designs.size(); ++i) {
            const auto& d = m_report->designs[i];
            const double mx = d.measured.accuracy * 100;
            if (!std::isfinite(mx))
                continue;
            bool named = false;
            for (const bool replay : {false, true}) {
                const auto& p = replay ? d.replayed : d.simulated;
                if (!p || !std::isfinite(p->accuracy.accuracy))
                    continue;
                const double py = p->accuracy.accuracy * 100;
                extend(mx);
                extend(py);
                addBars(mx, d.measured.ci, py, p->accuracy.ci, replay ? kReplayedColour : kSimulatedColour);
                (replay ? m_replayed : m_simulated)->append(mx, py);
                (replay ? m_replayedDesigns : m_simulatedDesigns).push_back(int(i));
                if (!named) {
                    labelled.push_back(int(i));
                    m_labelled.emplace_back(mx, py);
                    named = true;
                }
            }
        }
    }
    attach(m_simulated);
    attach(m_replayed);

    // One range on both axes, so the diagonal is the square's; on round steps, inside 0–100 %.
    if (lo > hi) {
        lo = 0;
        hi = 100;
    }
    const double pad = std::max(2.0, (hi - lo) * 0.06);
    lo = std::max(0.0, lo - pad);
    hi = std::min(100.0, hi + pad);
    const double step = ChartAxes::roundStep(hi - lo);
    lo = std::max(0.0, std::floor(lo / step) * step);
    hi = std::min(100.0, std::ceil(hi / step) * step);
    m_diagonal->append(lo, lo);
    m_diagonal->append(hi, hi);
    ChartAxes::roundTicks(m_x, lo, hi, step, {}, QStringLiteral("%"));
    ChartAxes::roundTicks(m_y, lo, hi, step, {}, QStringLiteral("%"));
    m_view->restyle();

    for (const int design : labelled) {
        auto* label = new QGraphicsSimpleTextItem(q(m_report->designs[size_t(design)].name), c);
        label->setZValue(10);
        label->setBrush(text);
        label->setFont(m_x->labelsFont());
        m_labels.push_back(label);
    }
    for (const bool replay : {false, true}) {
        QScatterSeries* series = replay ? m_replayed : m_simulated;
        connect(series, &QScatterSeries::hovered, this, [this, series, replay](const QPointF& at, bool state) {
            const auto& designs = replay ? m_replayedDesigns : m_simulatedDesigns;
            const qsizetype i = series->points().indexOf(at);
            if (state && i >= 0 && size_t(i) < designs.size())
                QToolTip::showText(QCursor::pos(), pointText(designs[size_t(i)], replay), m_view);
            else
                QToolTip::hideText();
        });
    }
    placeLabels();
}

// Clear of every point of both series, not only the named ones.
void FidelityChart::placeLabels()
{
    QChart* c = chart();
    if (!m_simulated || !m_replayed)
        return;
    std::vector<QPointF> at, others;
    for (const QPointF& p : m_labelled)
        at.push_back(c->mapToPosition(p, m_simulated));
    for (const QPointF& p : m_replayed->points())
        others.push_back(c->mapToPosition(p, m_replayed));
    PointLabels::place(m_labels, at, c->plotArea(), others);
}

} // namespace conclave::ui
