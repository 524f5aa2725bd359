#include "timeline/TimeAxisView.h"

#include "timeline/StatusPalette.h"
#include "timeline/TimelineColours.h"
#include "timeline/TimelineView.h"

#include <QGraphicsLayout>
#include <QLineSeries>
#include <QMouseEvent>
#include <QScatterSeries>
#include <QTimer>
#include <QValueAxis>
#include <QWheelEvent>

#include <cmath>

namespace conclave::ui {

namespace {
// The labels sit in this band above the axis line; below it, down to the
// lanes, the ruler strip where the grid starts and the playhead is drawn.
constexpr int kLabelBand = 20;
} // namespace

TimeAxisView::TimeAxisView(QWidget* parent)
    : QChartView(new QChart, parent), m_axis(new QValueAxis), m_y(new QValueAxis), m_playhead(new QLineSeries),
      m_handle(new QScatterSeries)
{
    QChart* c = chart();
    c->setAnimationOptions(QChart::NoAnimation);
    c->legend()->hide();
    c->setBackgroundRoundness(0);
    c->setDropShadowEnabled(false);
    c->setMargins({});
    c->layout()->setContentsMargins(0, 0, 0, 0);
    // QtCharts leaves its background items unsized when the plot area is fixed: drawBackground() paints them.
    c->setBackgroundVisible(false);
    c->setPlotAreaBackgroundVisible(false);

    QFont font = m_axis->labelsFont();
    font.setPointSizeF(8);
    m_axis->setLabelsFont(font);
    // The band is too short for QtCharts' own sizing; the labels fit it, so never elide them.
    m_axis->setTruncateLabels(false);
    m_axis->setMinorTickCount(0);
    m_axis->setTickAnchor(0);
    m_axis->setTickType(QValueAxis::TicksDynamic);
    m_scale = TimeScale::at(1000);
    m_axis->setTickInterval(double(m_scale.stepUs) / double(m_scale.unitUs));
    m_axis->setLabelFormat(m_scale.labelFormat());
    m_axis->setRange(0, 1);
    c->addAxis(m_axis, Qt::AlignTop);
    m_y->setRange(0, 1);
    m_y->setVisible(false);
    c->addAxis(m_y, Qt::AlignLeft);

    m_playhead->setPen(QPen(StatusPalette::playhead(), 2));
    // A diamond centred on the axis line, cut by the plot area: a head pointing down at the lanes.
    m_handle->setMarkerShape(QScatterSeries::MarkerShapeRotatedRectangle);
    m_handle->setMarkerSize(16);
    m_handle->setColor(StatusPalette::playhead());
    m_handle->setBorderColor(StatusPalette::playhead());
    for (QXYSeries* series : std::initializer_list<QXYSeries*>{m_playhead, m_handle}) {
        c->addSeries(series);
        series->attachAxis(m_axis);
        series->attachAxis(m_y);
        series->setVisible(false);
    }

    restyle();
    setFrameShape(QFrame::NoFrame);
    setFixedHeight(kHeight);
    setRenderHint(QPainter::Antialiasing, false);
    connect(m_axis, &QValueAxis::rangeChanged, this, &TimeAxisView::drive);
}

void TimeAxisView::attach(TimelineView* timeline)
{
    m_timelines.push_back(timeline);
    timeline->installEventFilter(this);
    connect(timeline, &TimelineView::viewRangeChanged, this, [this, timeline] { follow(timeline); });
    connect(timeline, &QObject::destroyed, this, [this, timeline] { std::erase(m_timelines, timeline); });
    follow(m_timelines.front());
}

int64_t TimeAxisView::startUs() const
{
    return int64_t(std::llround(m_axis->min() * double(m_scale.unitUs)));
}

int64_t TimeAxisView::endUs() const
{
    return int64_t(std::llround(m_axis->max() * double(m_scale.unitUs)));
}

double TimeAxisView::xOf(int64_t us) const
{
    return chart()->mapToPosition(QPointF(m_scale.toUnit(us), 0), m_playhead).x();
}

int64_t TimeAxisView::usAt(double x) const
{
    return int64_t(std::llround(chart()->mapToValue(QPointF(x, 0), m_playhead).x() * double(m_scale.unitUs)));
}

void TimeAxisView::setPlayhead(qint64 us)
{
    if (us == m_playheadUs)
        return;
    m_playheadUs = us;
    placePlayhead();
}

void TimeAxisView::placePlayhead()
{
    if (m_playheadUs < 0) {
        m_playhead->setVisible(false);
        m_handle->setVisible(false);
        return;
    }
    const double x = m_scale.toUnit(m_playheadUs);
    m_playhead->replace(QList<QPointF>{{x, 0}, {x, 1}});
    m_handle->replace(QList<QPointF>{{x, 1}});
    m_playhead->setVisible(true);
    m_handle->setVisible(true);
}

// A timeline moved: the others and the axis take its range.
void TimeAxisView::follow(TimelineView* from)
{
    if (m_following)
        return;
    m_following = true;
    const int64_t start = from->viewStartUs();
    const int64_t end = from->viewEndUs();
    for (auto* t : m_timelines) {
        if (t == from)
            continue;
        if (from->isFitted())
            t->fitAll();
        else
            t->setViewRange(start, end);
    }
    layoutPlotArea();
    applyScale(TimeScale::at(from->viewport().usPerPixel), start, end);
    m_following = false;
}

void TimeAxisView::applyScale(const TimeScale& next, int64_t startUs, int64_t endUs)
{
    const double min = next.toUnit(startUs);
    const double max = next.toUnit(endUs);
    const double interval = double(next.stepUs) / double(next.unitUs);
    if (next.unitUs != m_scale.unitUs) {
        // Across units the old interval on the new range could mean thousands of ticks for a moment.
        m_axis->setTickType(QValueAxis::TicksFixed);
        m_axis->setRange(min, max);
        m_axis->setTickInterval(interval);
        m_axis->setTickType(QValueAxis::TicksDynamic);
    } else if (next.stepUs > m_scale.stepUs) {
        m_axis->setTickInterval(interval);
        m_axis->setRange(min, max);
    } else {
        m_axis->setRange(min, max);
        m_axis->setTickInterval(interval);
    }
    if (next.labelFormat() != m_scale.labelFormat())
        m_axis->setLabelFormat(next.labelFormat());
    const bool unitChanged = next.unitUs != m_scale.unitUs;
    m_scale = next;
    if (unitChanged)
        placePlayhead();
    // A new tick interval reaches the axis item on the chart's next layout: now, not after the next paint.
    chart()->layout()->activate();
}

// The axis's range was set (by a caller or by this view's mouse): the timelines take it.
void TimeAxisView::drive(qreal min, qreal max)
{
    if (m_following || m_timelines.empty())
        return;
    const auto start = int64_t(std::llround(min * double(m_scale.unitUs)));
    const auto end = int64_t(std::llround(max * double(m_scale.unitUs)));
    m_following = true;
    for (auto* t : m_timelines)
        t->setViewRange(start, end);
    m_following = false;
    // The range the timelines took (they clamp it), in the scale for that zoom.
    follow(m_timelines.front());
}

int TimeAxisView::timelineOffset() const
{
    if (m_timelines.empty() || m_timelines.front()->window() != window())
        return 0;
    return m_timelines.front()->mapTo(window(), QPoint()).x() - mapTo(window(), QPoint()).x();
}

// The plot area is the primary timeline's bar area, so the chart's mapping is the bars' mapping.
void TimeAxisView::layoutPlotArea()
{
    if (m_timelines.empty())
        return;
    const auto& vp = m_timelines.front()->viewport();
    const QRectF area(timelineOffset() + TimelineViewport::kLabelWidth, kLabelBand, vp.plotWidth(),
                      std::max(1, height() - kLabelBand));
    if (area == chart()->plotArea())
        return;
    chart()->setPlotArea(area);
    // A fixed plot area moves the series at once but the axis only on the next layout.
    chart()->layout()->invalidate();
    chart()->layout()->activate();
}

bool TimeAxisView::eventFilter(QObject* watched, QEvent* event)
{
    if (!m_timelines.empty() && watched == m_timelines.front()) {
        if (event->type() == QEvent::Move)
            layoutPlotArea();
        else if (event->type() == QEvent::Resize)
            // After the timeline's own resizeEvent has updated its viewport.
            QTimer::singleShot(0, this, &TimeAxisView::layoutPlotArea);
    }
    return QChartView::eventFilter(watched, event);
}

void TimeAxisView::restyle()
{
    const TimelineColours colours = TimelineColours::of(palette());
    m_axis->setLabelsColor(colours.text);
    m_axis->setLinePen(QPen(colours.rule));
    m_axis->setGridLinePen(QPen(colours.grid));
}

void TimeAxisView::changeEvent(QEvent* event)
{
    QChartView::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        restyle();
}

void TimeAxisView::drawBackground(QPainter* painter, const QRectF& rect)
{
    // The label band as the lanes' names column, the ruler strip as the lanes.
    const TimelineColours colours = TimelineColours::of(palette());
    painter->fillRect(rect, colours.labels);
    painter->fillRect(chart()->plotArea() & rect, colours.lane);
}

void TimeAxisView::resizeEvent(QResizeEvent* event)
{
    QChartView::resizeEvent(event);
    layoutPlotArea();
}

void TimeAxisView::moveEvent(QMoveEvent* event)
{
    QChartView::moveEvent(event);
    layoutPlotArea();
}

void TimeAxisView::wheelEvent(QWheelEvent* event)
{
    if (!m_timelines.empty() && event->angleDelta().y() != 0) {
        const double x = std::max<double>(event->position().x() - timelineOffset(), TimelineViewport::kLabelWidth);
        m_timelines.front()->zoomAt(x, std::pow(1.25, event->angleDelta().y() / 120.0));
    }
    event->accept();
}

void TimeAxisView::mousePressEvent(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton || m_timelines.empty())
        return;
    if (m_seekable) {
        emit seekRequested(std::max<int64_t>(0, usAt(event->position().x())));
        return;
    }
    m_panning = true;
    m_pressX = event->position().x();
    m_pressStartUs = m_timelines.front()->viewStartUs();
}

void TimeAxisView::mouseMoveEvent(QMouseEvent* event)
{
    if (m_timelines.empty() || !(event->buttons() & Qt::LeftButton))
        return;
    if (m_seekable) {
        emit seekRequested(std::max<int64_t>(0, usAt(event->position().x())));
        return;
    }
    if (!m_panning)
        return;
    auto* t = m_timelines.front();
    const int64_t span = t->viewEndUs() - t->viewStartUs();
    const auto start = m_pressStartUs - int64_t((event->position().x() - m_pressX) * t->viewport().usPerPixel);
    t->setViewRange(start, start + span);
}

void TimeAxisView::mouseReleaseEvent(QMouseEvent*)
{
    m_panning = false;
}

void TimeAxisView::mouseDoubleClickEvent(QMouseEvent*)
{
    if (!m_timelines.empty())
        m_timelines.front()->fitAll();
}

} // namespace conclave::ui
