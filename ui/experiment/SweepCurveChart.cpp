#include "experiment/SweepCurveChart.h"

#include "experiment/PointLabels.h"
#include "timeline/ChartAxes.h"
#include "timeline/ThemedChartView.h"

#include "conclave/experiment/ReportText.h"
#include "conclave/experiment/SweepCurveText.h"
#include "conclave/util/MoneyText.h"

#include <QAreaSeries>
#include <QBoxLayout>
#include <QChart>
#include <QCursor>
#include <QEvent>
#include <QGraphicsLayout>
#include <QGraphicsSimpleTextItem>
#include <QLabel>
#include <QLegendMarker>
#include <QLineF>
#include <QLineSeries>
#include <QResizeEvent>
#include <QScatterSeries>
#include <QToolTip>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace conclave::ui {

namespace {

// Hues that read on light and dark backgrounds, apart from the status colours; the single models take the text's.
QColor seriesColour(int i)
{
    static const QColor colours[] = {QColor(0x1e, 0x88, 0xe5), QColor(0xf4, 0x51, 0x1e), QColor(0x00, 0x89, 0x7b),
                                     QColor(0x8e, 0x24, 0xaa)};
    return colours[size_t(i) % std::size(colours)];
}

QString q(const std::string& text)
{
    return QString::fromStdString(text);
}

bool finite(const Interval& ci)
{
    return std::isfinite(ci.lo) && std::isfinite(ci.hi);
}

QString seriesName(const SweepCurve::Series& s)
{
    return q(s.team + " (" + s.path + ")");
}

} // namespace

SweepCurveChart::SweepCurveChart(QWidget* parent)
    : QWidget(parent), m_basis(new QLabel(this)), m_figures(new QLabel(this)), m_notes(new QLabel(this))
{
    auto* chart = new QChart;
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->legend()->setAlignment(Qt::AlignBottom);
    // The chart shares a lower tab with its texts (the designs table above takes the height): no room to spare.
    chart->setMargins(QMargins(2, 2, 2, 2));
    chart->layout()->setContentsMargins(0, 0, 0, 0);
    chart->setBackgroundRoundness(0);
    m_view = new ThemedChartView(chart, this);
    m_view->setMinimumSize(320, 160);
    for (QLabel* label : {m_basis, m_figures, m_notes}) {
        label->setTextFormat(Qt::PlainText);
        label->setWordWrap(true);
        label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    }
    QFont bold = m_basis->font();
    bold.setBold(true);
    m_basis->setFont(bold);
    m_texts = new QWidget(this);
    auto* texts = new QVBoxLayout(m_texts);
    texts->setContentsMargins(0, 0, 0, 0);
    texts->setSpacing(4);
    texts->addWidget(m_basis);
    texts->addWidget(m_figures);
    texts->addWidget(m_notes);
    texts->addStretch(1);
    m_layout = new QBoxLayout(QBoxLayout::BottomToTop, this);
    m_layout->setContentsMargins(4, 2, 4, 2);
    m_layout->setSpacing(6);
    m_layout->addWidget(m_view, 1);
    m_layout->addWidget(m_texts);
    // Made once and kept: axes removed from a chart that was never laid out stay drawn in its corner.
    m_x = new QValueAxis;
    m_y = new QValueAxis;
    m_x->setTitleText(tr("mean cost per trial (USD)"));
    m_y->setTitleText(tr("quality (%)"));
    chart->addAxis(m_x, Qt::AlignBottom);
    chart->addAxis(m_y, Qt::AlignLeft);
    connect(chart, &QChart::plotAreaChanged, this, &SweepCurveChart::placeLabels);
    rebuild();
}

QChart* SweepCurveChart::chart() const
{
    return m_view->chart();
}

void SweepCurveChart::setCurve(std::optional<SweepCurve> curve)
{
    m_curve = std::move(curve);
    rebuild();
}

void SweepCurveChart::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    arrange();
}

// Short and wide (a lower tab across the view) the texts stand beside the chart, so it keeps the height; else above it.
void SweepCurveChart::arrange()
{
    const bool beside = m_view->isVisibleTo(this) && width() >= 2 * height() && width() >= 3 * kTextsWidth;
    m_layout->setDirection(beside ? QBoxLayout::LeftToRight : QBoxLayout::BottomToTop);
    if (beside) {
        m_texts->setFixedWidth(std::max(kTextsWidth, width() / 3));
    } else {
        m_texts->setMinimumWidth(0);
        m_texts->setMaximumWidth(QWIDGETSIZE_MAX);
    }
}

bool SweepCurveChart::textsBeside() const
{
    return m_layout->direction() == QBoxLayout::LeftToRight;
}

void SweepCurveChart::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        rebuild(); // the names, the hulls and the single models follow the theme's text
}

QString SweepCurveChart::variantText(int series, int variant) const
{
    if (!m_curve || !m_curve->figures || series < 0 || size_t(series) >= m_curve->series.size())
        return {};
    const auto& s = m_curve->series[size_t(series)];
    const auto& f = m_curve->figures->curves[size_t(series)];
    if (variant < 0 || size_t(variant) >= f.points.size())
        return {};
    const auto v = size_t(variant);
    QString text = tr("%1 = %2 (%3)").arg(q(s.path), q(s.values[v]), q(s.team));
    text += tr("\ncost/trial %1").arg(q(moneyText(f.points[v].cost)));
    text +=
        tr("\nquality %1 %2").arg(q(ReportText::percent(f.points[v].quality)), q(ReportText::ciText(f.qualityCi[v])));
    if (!f.shares.empty())
        text += tr("\nstrong calls %1 (%2)").arg(q(ReportText::percent(f.shares[v])), q(s.strong));
    const bool onHull = std::any_of(f.hull.begin(), f.hull.end(), [&](const CurvePoint& h) {
        return h.cost == f.points[v].cost && h.quality == f.points[v].quality;
    });
    if (onHull)
        text += tr("\non the hull");
    return text;
}

QString SweepCurveChart::referenceText(int reference) const
{
    if (!m_curve || !m_curve->figures || reference < 0 || size_t(reference) >= m_curve->references.size())
        return {};
    const auto r = size_t(reference);
    const auto& f = *m_curve->figures;
    return tr("%1 alone\ncost/trial %2\nquality %3 %4")
        .arg(q(m_curve->references[r].model), q(moneyText(f.references[r].cost)),
             q(ReportText::percent(f.references[r].quality)), q(ReportText::ciText(f.referenceQualityCi[r])));
}

QString SweepCurveChart::figuresText() const
{
    if (!m_curve)
        return {};
    QStringList lines;
    for (size_t s = 0; s < m_curve->series.size(); ++s) {
        lines << q(SweepCurveText::series(m_curve->series[s]));
        if (m_curve->figures)
            lines << q(SweepCurveText::figures(m_curve->figures->curves[s]));
    }
    return lines.join(QLatin1Char('\n'));
}

void SweepCurveChart::clear()
{
    for (auto* label : m_labels)
        delete label;
    m_labels.clear();
    m_labelled.clear();
    m_lines.clear();
    m_bands.clear();
    m_hulls.clear();
    m_variantPoints.clear();
    m_variantOrder.clear();
    m_references = nullptr;
    chart()->removeAllSeries();
}

void SweepCurveChart::rebuild()
{
    clear();
    if (!m_curve) {
        m_view->hide();
        m_basis->clear();
        m_figures->clear();
        m_notes->clear();
        return;
    }
    QString basis = q(SweepCurveText::basis(*m_curve));
    basis[0] = basis[0].toUpper();
    if (m_curve->provenance.kind == Provenance::Kind::Simulated)
        basis += tr(": these results come from the local-moe simulator, not from real models");
    m_basis->setText(basis);
    m_figures->setText(figuresText());
    QStringList notes;
    for (const auto& note : m_curve->notes)
        notes << tr("Note: %1").arg(q(note));
    m_notes->setText(notes.join(QLatin1Char('\n')));
    m_notes->setVisible(!notes.isEmpty());
    m_view->setVisible(m_curve->figures.has_value());
    arrange();
    if (!m_curve->figures)
        return;

    double yLo = 100, xHi = 0;
    for (size_t s = 0; s < m_curve->series.size(); ++s)
        addSeries(int(s), yLo, xHi);
    addReferences(yLo, xHi);

    // Room right of the dearest point and above 100 % for the names.
    const double xTop = xHi > 0 ? xHi * 1.3 : 1;
    ChartAxes::roundTicks(m_x, 0, xTop, ChartAxes::roundStep(xTop), QStringLiteral("$"));
    const double yBottom = std::max(0.0, std::floor(yLo / 10) * 10);
    const double yStep = ChartAxes::roundStep(100 - yBottom);
    ChartAxes::roundTicks(m_y, yBottom, 100 + yStep * 0.6, yStep, {}, QStringLiteral("%"));
    m_view->restyle();
    const QColor text = palette().color(QPalette::Text);
    for (auto* label : m_labels) {
        label->setBrush(text);
        label->setFont(m_x->labelsFont());
    }
    placeLabels();
}

// The band first, then the hull and the line, so the points and their names are drawn over both.
void SweepCurveChart::addSeries(int s, double& yLo, double& xHi)
{
    QChart* c = chart();
    const auto attach = [&](QAbstractSeries* series) {
        c->addSeries(series);
        series->attachAxis(m_x);
        series->attachAxis(m_y);
    };
    const auto& series = m_curve->series[size_t(s)];
    const auto& f = m_curve->figures->curves[size_t(s)];
    const QColor colour = seriesColour(s);
    const QString name = seriesName(series);
    const bool several = m_curve->series.size() > 1;

    std::vector<int> order(f.points.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
        const auto &pa = f.points[size_t(a)], &pb = f.points[size_t(b)];
        return pa.cost != pb.cost ? pa.cost < pb.cost : pa.quality < pb.quality;
    });

    auto* band = new QAreaSeries;
    auto* upper = new QLineSeries(band);
    auto* lower = new QLineSeries(band);
    for (const int v : order) {
        const auto& p = f.points[size_t(v)];
        const Interval ci = finite(f.qualityCi[size_t(v)]) ? f.qualityCi[size_t(v)] : Interval{p.quality, p.quality};
        upper->append(p.cost, ci.hi * 100);
        lower->append(p.cost, ci.lo * 100);
        yLo = std::min(yLo, ci.lo * 100);
        xHi = std::max(xHi, p.cost);
    }
    band->setUpperSeries(upper);
    band->setLowerSeries(lower);
    band->setName(several ? tr("%1: 95% CI").arg(name) : tr("95% CI"));
    QColor fill = colour;
    fill.setAlpha(70);
    band->setBrush(fill);
    band->setPen(Qt::NoPen);
    attach(band);
    m_bands.push_back(band);

    QColor faint = palette().color(QPalette::Text);
    faint.setAlpha(150);
    auto* hull = new QLineSeries;
    for (const auto& p : f.hull)
        hull->append(p.cost, p.quality * 100);
    hull->setName(several ? tr("%1: hull").arg(name) : tr("hull"));
    hull->setPen(QPen(faint, 1.5, Qt::DashLine));
    attach(hull);
    m_hulls.push_back(hull);

    auto* line = new QLineSeries;
    auto* points = new QScatterSeries;
    for (const int v : order) {
        line->append(f.points[size_t(v)].cost, f.points[size_t(v)].quality * 100);
        points->append(f.points[size_t(v)].cost, f.points[size_t(v)].quality * 100);
    }
    line->setName(several ? name : q(series.path)); // one series: the texts above name its team
    line->setPen(QPen(colour, 2));
    attach(line);
    m_lines.push_back(line);
    points->setColor(colour);
    points->setBorderColor(colour.darker(130));
    points->setMarkerShape(QScatterSeries::MarkerShapeCircle);
    points->setMarkerSize(9);
    attach(points);
    for (auto* marker : c->legend()->markers(points))
        marker->setVisible(false);
    m_variantPoints.push_back(points);
    m_variantOrder.push_back(order);

    // One name per place: variants that landed on one point are named together ("0.4, 0.5").
    std::vector<bool> named(order.size(), false);
    for (size_t i = 0; i < order.size(); ++i) {
        if (named[i])
            continue;
        const auto& p = f.points[size_t(order[i])];
        QStringList values;
        for (size_t j = i; j < order.size(); ++j) {
            const auto& other = f.points[size_t(order[j])];
            if (other.cost == p.cost && other.quality == p.quality) {
                values << q(series.values[size_t(order[j])]);
                named[j] = true;
            }
        }
        auto* label = new QGraphicsSimpleTextItem(values.join(QStringLiteral(", ")), c);
        label->setZValue(10);
        m_labels.push_back(label);
        m_labelled.push_back({QPointF(p.cost, p.quality * 100), points, label->text()});
    }

    connect(points, &QScatterSeries::hovered, this, [this, s, points](const QPointF& at, bool state) {
        if (!state) {
            QToolTip::hideText();
            return;
        }
        const auto& variants = m_variantOrder[size_t(s)];
        QStringList texts;
        const auto all = points->points();
        for (qsizetype i = 0; i < all.size() && size_t(i) < variants.size(); ++i)
            if (all[i] == at)
                texts << variantText(s, variants[size_t(i)]);
        QToolTip::showText(QCursor::pos(), texts.join(QStringLiteral("\n\n")), m_view);
    });
}

void SweepCurveChart::addReferences(double& yLo, double& xHi)
{
    QChart* c = chart();
    const auto& f = *m_curve->figures;
    const QColor text = palette().color(QPalette::Text);
    QColor barColour = text;
    barColour.setAlpha(170);
    m_references = new QScatterSeries;
    m_references->setName(tr("single models"));
    for (size_t r = 0; r < f.references.size(); ++r) {
        const auto& p = f.references[r];
        xHi = std::max(xHi, p.cost);
        yLo = std::min(yLo, p.quality * 100);
        if (finite(f.referenceQualityCi[r])) {
            auto* bar = new QLineSeries;
            bar->append(p.cost, f.referenceQualityCi[r].lo * 100);
            bar->append(p.cost, f.referenceQualityCi[r].hi * 100);
            bar->setPen(QPen(barColour, 2));
            c->addSeries(bar);
            bar->attachAxis(m_x);
            bar->attachAxis(m_y);
            for (auto* marker : c->legend()->markers(bar))
                marker->setVisible(false);
            yLo = std::min(yLo, f.referenceQualityCi[r].lo * 100);
        }
        m_references->append(p.cost, p.quality * 100);
        auto* label = new QGraphicsSimpleTextItem(q(m_curve->references[r].model), c);
        label->setZValue(10);
        m_labels.push_back(label);
        m_labelled.push_back({QPointF(p.cost, p.quality * 100), m_references, label->text()});
    }
    m_references->setColor(text);
    m_references->setBorderColor(palette().color(QPalette::Base));
    m_references->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
    m_references->setMarkerSize(11);
    c->addSeries(m_references);
    m_references->attachAxis(m_x);
    m_references->attachAxis(m_y);
    connect(m_references, &QScatterSeries::hovered, this, [this](const QPointF& at, bool state) {
        const qsizetype i = m_references->points().indexOf(at);
        if (state && i >= 0)
            QToolTip::showText(QCursor::pos(), referenceText(int(i)), m_view);
        else
            QToolTip::hideText();
    });
}

// Variants of one series drawn within kNear pixels of the first of them share its name ("0.5, 0.6"). Then the
// single models' names first (PointLabels places greedily): they are longer, and a variant's short value finds
// room beside a cluster of cheap points more easily.
void SweepCurveChart::placeLabels()
{
    constexpr double kNear = 8;
    QChart* c = chart();
    std::vector<QPointF> screen;
    for (const auto& named : m_labelled)
        screen.push_back(c->mapToPosition(named.at, named.series));
    const bool laidOut = c->plotArea().width() > kNear && c->plotArea().height() > kNear;
    size_t anchor = 0;
    for (size_t i = 0; i < m_labelled.size(); ++i) {
        const bool joins = laidOut && i > 0 && m_labelled[i].series != m_references &&
                           m_labelled[i].series == m_labelled[anchor].series &&
                           QLineF(screen[i], screen[anchor]).length() < kNear;
        m_labels[i]->setVisible(!joins);
        if (joins) {
            m_labels[anchor]->setText(m_labels[anchor]->text() + QStringLiteral(", ") + m_labelled[i].text);
            continue;
        }
        anchor = i;
        m_labels[i]->setText(m_labelled[i].text);
    }
    std::vector<QGraphicsSimpleTextItem*> labels;
    std::vector<QPointF> at;
    for (const bool references : {true, false})
        for (size_t i = 0; i < m_labelled.size(); ++i)
            if ((m_labelled[i].series == m_references) == references && m_labels[i]->isVisible()) {
                labels.push_back(m_labels[i]);
                at.push_back(screen[i]);
            }
    PointLabels::place(labels, at, c->plotArea());
}

} // namespace conclave::ui
