#include "timeline/TimelineRenderer.h"

#include "timeline/StatusPalette.h"
#include "timeline/TimelineColours.h"
#include "timeline/TimeScale.h"

#include <QApplication>
#include <QFontMetrics>
#include <QPainter>
#include <QPalette>
#include <QPolygonF>

namespace conclave::ui {

namespace {

constexpr int kBarInset = 4;
constexpr double kDetailPixels = 6;

QColor kindColor(const std::string& kind)
{
    if (kind == "input")
        return QColor(0x54, 0x6e, 0x7a);
    if (kind == "router")
        return QColor(0xff, 0xa0, 0x00);
    if (kind == "expert")
        return QColor(0x1e, 0x88, 0xe5);
    if (kind == "coordinator")
        return QColor(0x8e, 0x24, 0xaa);
    if (kind == "aggregator")
        return QColor(0x00, 0x89, 0x7b);
    if (kind == "output")
        return QColor(0x43, 0xa0, 0x47);
    return QColor(0x90, 0x90, 0x90);
}

std::pair<int, int> visibleLanes(const TimelineModel& model, const TimelineViewport& vp)
{
    const int first = std::max(0, vp.laneAt(0));
    const int last = std::min(model.laneCount() - 1, vp.laneAt(vp.height - 1));
    return {first, last};
}

QRectF barRect(const TimelineViewport& vp, int lane, int64_t startUs, int64_t endUs)
{
    const double x0 = vp.xOf(startUs);
    const double x1 = std::max(x0 + 1.0, vp.xOf(endUs));
    const double top = vp.laneTop(lane) + kBarInset;
    return {x0, top, x1 - x0, double(TimelineViewport::kLaneHeight - 2 * kBarInset)};
}

TimelineColours coloursOf(const TimelineRenderer::State& state)
{
    return TimelineColours::of(state.palette ? *state.palette : QApplication::palette());
}

} // namespace

void TimelineRenderer::paint(QPainter& p, const TimelineModel& model, const TimelineViewport& vp, const State& state)
{
    p.fillRect(0, 0, vp.width, vp.height, coloursOf(state).lane);
    paintLanes(p, model, vp, state);
    p.save();
    p.setClipRect(TimelineViewport::kLabelWidth, 0, vp.plotWidth(), vp.height);
    paintBars(p, model, vp, state);
    paintGhost(p, model, vp, state);
    paintReplay(p, model, vp, state);
    p.restore();
    paintLabels(p, model, vp, state);
    if (state.playheadUs >= 0) {
        const double x = vp.xOf(state.playheadUs);
        if (x >= TimelineViewport::kLabelWidth && x <= vp.width) {
            p.setPen(QPen(StatusPalette::playhead(), 2));
            p.drawLine(QPointF(x, 0), QPointF(x, vp.height));
        }
    }
}

void TimelineRenderer::paintLanes(QPainter& p, const TimelineModel& model, const TimelineViewport& vp,
                                  const State& state)
{
    const TimelineColours colours = coloursOf(state);
    const auto [first, last] = visibleLanes(model, vp);
    for (int lane = first; lane <= last; ++lane) {
        const int top = vp.laneTop(lane);
        const QColor bg = lane == state.selectedLane ? colours.selected : lane % 2 ? colours.altLane : colours.lane;
        p.fillRect(TimelineViewport::kLabelWidth, top, vp.plotWidth(), TimelineViewport::kLaneHeight, bg);
    }
    // The grid continues the time axis's ticks (TimeAxisView uses the same scale).
    const int64_t step = TimeScale::at(vp.usPerPixel).stepUs;
    p.setPen(colours.grid);
    for (int64_t t = (std::max<int64_t>(vp.startUs, 0) / step) * step; t <= vp.endUs(); t += step) {
        const double x = vp.xOf(t);
        if (x >= TimelineViewport::kLabelWidth)
            p.drawLine(QPointF(x, 0), QPointF(x, vp.height));
    }
}

void TimelineRenderer::paintBars(QPainter& p, const TimelineModel& model, const TimelineViewport& vp,
                                 const State& state)
{
    const auto [first, last] = visibleLanes(model, vp);
    const QColor critical = StatusPalette::criticalPath();
    for (int lane = first; lane <= last; ++lane) {
        for (const auto& item : model.levelOfDetail(lane, vp.startUs, vp.endUs(), vp.usPerPixel)) {
            const QRectF r = barRect(vp, lane, item.startUs, item.endUs);
            const QColor colour = StatusPalette::color(item.status);
            // Over a ghost, only the ghost's critical path is highlighted.
            const bool onPath = item.critical && !state.ghost;
            if (onPath)
                p.fillRect(QRectF(r.x(), r.bottom() + 1, r.width(), 3), critical.darker(115));
            if (item.count > 1) {
                p.fillRect(r, colour.darker(110));
                continue;
            }
            const auto& bar = model.bars()[size_t(item.bar)];
            const bool detailed = r.width() >= kDetailPixels;
            const bool member = (bar.flags & TimelineModel::Member) != 0;
            QRectF body = member ? r.adjusted(0, 2, 0, -2) : r;
            p.fillRect(body, detailed && bar.segmentCount > 0 ? colour.lighter(150) : colour);
            if (detailed)
                paintDetail(p, model, vp, item.bar, state);
            if (onPath) {
                p.setPen(QPen(critical.darker(140), 1.5));
                p.setBrush(Qt::NoBrush);
                p.drawRect(body.adjusted(0.75, 0.75, -0.75, -0.75));
            }
            if (item.bar == state.hoverBar) {
                p.setPen(QPen(coloursOf(state).text, 1.5));
                p.setBrush(Qt::NoBrush);
                p.drawRect(body);
            }
        }
    }
}

void TimelineRenderer::paintDetail(QPainter& p, const TimelineModel& model, const TimelineViewport& vp, int bar,
                                   const State& state)
{
    const auto& b = model.bars()[size_t(bar)];
    const QRectF r = barRect(vp, b.lane, b.startUs, b.endUs());
    // Attempts fill the body; rounds are a strip along the top with their names.
    int roundIndex = 0;
    for (const auto& s : model.segments(bar)) {
        QRectF sr = barRect(vp, b.lane, s.startUs, s.startUs + s.durationUs);
        if (s.kind == SpanKind::Attempt) {
            sr.adjust(0, 3, 0, -3);
            p.fillRect(sr, StatusPalette::color(s.status));
            if (sr.width() > 3) {
                p.setPen(QColor(255, 255, 255, 200));
                p.drawLine(QPointF(sr.left(), sr.top()), QPointF(sr.left(), sr.bottom()));
            }
        } else {
            sr.setHeight(4);
            p.fillRect(sr, roundIndex++ % 2 ? QColor(0x8e, 0x24, 0xaa) : QColor(0xce, 0x93, 0xd8));
            const QString name = QString::fromStdString(model.run().spans[s.span].name);
            if (sr.width() > 40) {
                QFont f = p.font();
                f.setPointSizeF(7);
                p.setFont(f);
                p.setPen(QColor(0x30, 0x10, 0x40));
                p.drawText(sr.adjusted(3, 4, -2, 12), Qt::AlignLeft | Qt::AlignTop,
                           QFontMetrics(f).elidedText(name, Qt::ElideRight, int(sr.width()) - 5));
            }
        }
    }
    p.setPen(QPen(QColor(0x21, 0x21, 0x21), 2));
    for (const auto& s : model.segments(bar)) {
        const Span& span = model.run().spans[s.span];
        if (s.kind != SpanKind::Attempt || span.ttftUs < 0)
            continue;
        const double x = vp.xOf(span.startUs + span.ttftUs);
        p.drawLine(QPointF(x, r.center().y()), QPointF(x, r.bottom()));
    }
    if (b.flags & TimelineModel::CutShort) {
        // A torn right edge: the straggler was stopped, not finished.
        QPolygonF zig;
        const double x = r.right();
        for (int i = 0; i <= 4; ++i)
            zig << QPointF(x - (i % 2 ? 4 : 0), r.top() + r.height() * i / 4);
        zig << QPointF(x + 1, r.bottom()) << QPointF(x + 1, r.top());
        p.setPen(Qt::NoPen);
        p.setBrush(coloursOf(state).lane);
        p.drawPolygon(zig);
    }
}

void TimelineRenderer::paintGhost(QPainter& p, const TimelineModel& model, const TimelineViewport& vp,
                                  const State& state)
{
    if (!state.ghost)
        return;
    const TimelineModel& ghost = *state.ghost;
    const TimelineColours colours = coloursOf(state);
    const QColor critical = StatusPalette::criticalPath();
    QColor veil = colours.lane;
    veil.setAlpha(150);
    const auto [first, last] = visibleLanes(model, vp);
    for (int lane = first; lane <= last; ++lane) {
        const int ghostLane = ghost.laneOf(model.lane(lane).node);
        if (ghostLane < 0)
            continue;
        // The ghost takes the lower half of the lane's bar: the run above it stays readable.
        for (const auto& item : ghost.levelOfDetail(ghostLane, vp.startUs, vp.endUs(), vp.usPerPixel)) {
            const QRectF full = barRect(vp, lane, item.startUs, item.endUs);
            const QRectF r(full.x(), full.center().y(), full.width(), full.height() / 2 + 2);
            QColor fill = StatusPalette::color(item.status);
            fill.setAlpha(110);
            p.fillRect(r, veil);
            p.fillRect(r, fill);
            p.setBrush(Qt::NoBrush);
            if (item.critical) {
                p.setPen(QPen(critical.darker(115), 2));
                p.drawRect(r.adjusted(1, 1, -1, -1));
            } else {
                QPen dashed(colours.text, 1, Qt::DashLine);
                p.setPen(dashed);
                p.drawRect(r.adjusted(0.5, 0.5, -0.5, -0.5));
            }
        }
    }
}

void TimelineRenderer::paintReplay(QPainter& p, const TimelineModel& model, const TimelineViewport& vp,
                                   const State& state)
{
    if (state.playheadUs < 0)
        return;
    const auto [first, last] = visibleLanes(model, vp);
    const QColor running = StatusPalette::color(Status::Running);
    for (int lane = first; lane <= last; ++lane) {
        const int bar = model.barAt(lane, state.playheadUs);
        if (bar < 0 || model.bars()[size_t(bar)].endUs() == state.playheadUs)
            continue;
        const auto& b = model.bars()[size_t(bar)];
        p.fillRect(barRect(vp, lane, b.startUs, state.playheadUs), running);
    }
    // What has not happened yet at the playhead is faded.
    const double x = std::max<double>(vp.xOf(state.playheadUs), TimelineViewport::kLabelWidth);
    p.fillRect(QRectF(x, 0, vp.width - x, vp.height), coloursOf(state).fade);
}

void TimelineRenderer::paintLabels(QPainter& p, const TimelineModel& model, const TimelineViewport& vp,
                                   const State& state)
{
    const TimelineColours colours = coloursOf(state);
    p.fillRect(0, 0, TimelineViewport::kLabelWidth, vp.height, colours.labels);
    p.setPen(colours.rule);
    p.drawLine(TimelineViewport::kLabelWidth - 1, 0, TimelineViewport::kLabelWidth - 1, vp.height);
    const auto [first, last] = visibleLanes(model, vp);
    QFont f = p.font();
    f.setPointSizeF(9);
    const QFontMetrics fm(f);
    for (int lane = first; lane <= last; ++lane) {
        const auto& l = model.lane(lane);
        const int top = vp.laneTop(lane);
        if (lane == state.selectedLane)
            p.fillRect(0, top, TimelineViewport::kLabelWidth - 1, TimelineViewport::kLaneHeight, colours.selected);
        p.fillRect(6, top + 7, 4, TimelineViewport::kLaneHeight - 14, kindColor(l.kind));
        f.setBold(lane == state.selectedLane);
        p.setFont(f);
        p.setPen(colours.text);
        const QString text =
            fm.elidedText(QString::fromStdString(l.label), Qt::ElideRight, TimelineViewport::kLabelWidth - 22);
        p.drawText(QRect(16, top, TimelineViewport::kLabelWidth - 20, TimelineViewport::kLaneHeight),
                   Qt::AlignVCenter | Qt::AlignLeft, text);
    }
}

} // namespace conclave::ui
