#include "timeline/TimelineView.h"

#include "timeline/StatusPalette.h"
#include "timeline/TimeFormat.h"
#include "timeline/TimelineRenderer.h"

#include <QCursor>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QRubberBand>
#include <QToolTip>
#include <QWheelEvent>

#include <cmath>

namespace conclave::ui {

namespace {
constexpr double kMinUsPerPixel = 0.05;
constexpr int kClickSlop = 4;
} // namespace

TimelineView::TimelineView(QWidget* parent) : QWidget(parent)
{
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setMinimumHeight(2 * TimelineViewport::kLaneHeight);
}

void TimelineView::setModel(std::shared_ptr<const TimelineModel> model)
{
    m_model = std::move(model);
    m_selectedLane = -1;
    m_hoverBar = -1;
    m_vp.scrollY = 0;
    m_fitted = true;
    fitAll();
    updateGeometry();
}

void TimelineView::setGhost(std::shared_ptr<const TimelineModel> ghost)
{
    m_ghost = std::move(ghost);
    if (m_fitted)
        fitAll();
    update();
}

void TimelineView::updateModel(std::shared_ptr<const TimelineModel> model)
{
    const std::optional<NodeId> selected =
        m_model && m_selectedLane >= 0 ? std::optional<NodeId>(m_model->lane(m_selectedLane).node) : std::nullopt;
    const int lanes = m_model ? m_model->laneCount() : -1;
    m_model = std::move(model);
    m_selectedLane = selected && m_model ? m_model->laneOf(*selected) : -1;
    // Bars are numbered afresh: the one under the mouse is found again.
    m_hoverBar = m_hoverBar >= 0 ? barAt(mapFromGlobal(QCursor::pos())) : -1;
    clampScroll();
    if (m_fitted)
        fitAll();
    else
        setStart(m_vp.startUs, m_vp.usPerPixel);
    if (m_model && m_model->laneCount() != lanes)
        updateGeometry();
    update();
}

QSize TimelineView::sizeHint() const
{
    const int lanes = m_model ? std::min(m_model->laneCount(), 24) : 4;
    return {900, lanes * TimelineViewport::kLaneHeight + 2};
}

int64_t TimelineView::maxUs() const
{
    if (m_extentUs > 0)
        return m_extentUs;
    const int64_t ghost = m_ghost ? m_ghost->endUs() : 0;
    return m_model ? std::max<int64_t>({m_model->endUs(), ghost, 1}) : 1;
}

void TimelineView::setTimeExtent(int64_t us)
{
    m_extentUs = std::max<int64_t>(us, 0);
    if (m_fitted)
        fitAll();
}

void TimelineView::setStart(int64_t startUs, double usPerPixel)
{
    usPerPixel = std::clamp(usPerPixel, kMinUsPerPixel, std::max(double(maxUs()) * 4 / m_vp.plotWidth(), 1.0));
    const int64_t span = int64_t(std::llround(m_vp.plotWidth() * usPerPixel));
    const int64_t margin = span / 20;
    startUs = std::clamp<int64_t>(startUs, -margin, std::max<int64_t>(-margin, maxUs() + margin - span));
    if (startUs == m_vp.startUs && usPerPixel == m_vp.usPerPixel)
        return;
    m_vp.startUs = startUs;
    m_vp.usPerPixel = usPerPixel;
    update();
    emit viewRangeChanged(m_vp.startUs, m_vp.endUs());
}

void TimelineView::setViewRange(int64_t startUs, int64_t endUs)
{
    if (endUs <= startUs)
        return;
    m_fitted = false;
    setStart(startUs, double(endUs - startUs) / m_vp.plotWidth());
}

void TimelineView::fitAll()
{
    const int64_t end = maxUs();
    const int64_t margin = end / 50;
    setStart(-margin, double(end + 2 * margin) / m_vp.plotWidth());
    m_fitted = true;
}

void TimelineView::zoomAt(double x, double factor)
{
    m_fitted = false;
    const int64_t anchor = m_vp.usAt(x);
    const double upp = m_vp.usPerPixel / factor;
    setStart(anchor - int64_t(std::llround((x - TimelineViewport::kLabelWidth) * upp)), upp);
}

void TimelineView::setPlayhead(qint64 us)
{
    if (us == m_playheadUs)
        return;
    m_playheadUs = us;
    update();
}

void TimelineView::selectNode(const NodeId& node)
{
    m_selectedLane = m_model ? m_model->laneOf(node) : -1;
    if (m_selectedLane >= 0) {
        const int top = m_selectedLane * TimelineViewport::kLaneHeight;
        if (top < m_vp.scrollY)
            m_vp.scrollY = top;
        else if (top + TimelineViewport::kLaneHeight - m_vp.scrollY > height())
            m_vp.scrollY = top + TimelineViewport::kLaneHeight - height();
        clampScroll();
    }
    update();
}

void TimelineView::clampScroll()
{
    const int lanes = m_model ? m_model->laneCount() : 0;
    const int content = lanes * TimelineViewport::kLaneHeight;
    m_vp.scrollY = std::clamp(m_vp.scrollY, 0, std::max(0, content - height()));
}

int TimelineView::barAt(QPoint pos) const
{
    if (!m_model || pos.x() < TimelineViewport::kLabelWidth)
        return -1;
    const int lane = m_vp.laneAt(pos.y());
    // A bar narrower than a few pixels is still easy to hit.
    return m_model->barAt(lane, m_vp.usAt(pos.x()), int64_t(std::ceil(m_vp.usPerPixel * 2)));
}

QString TimelineView::tooltipText(int bar) const
{
    if (!m_model || bar < 0 || bar >= int(m_model->bars().size()))
        return {};
    const auto& b = m_model->bars()[size_t(bar)];
    const Span& s = m_model->span(bar);
    const auto& lane = m_model->lane(b.lane);
    std::string model = s.model;
    int64_t tokensIn = s.tokensIn, tokensOut = s.tokensOut, ttft = -1;
    double cost = s.costUsd;
    int attempts = 0;
    const bool sumAttempts = tokensIn == 0 && tokensOut == 0 && cost == 0;
    for (const auto& seg : m_model->segments(bar)) {
        const Span& a = m_model->run().spans[seg.span];
        if (seg.kind != SpanKind::Attempt)
            continue;
        ++attempts;
        if (model.empty())
            model = a.model;
        if (ttft < 0 && a.ttftUs >= 0)
            ttft = a.startUs + a.ttftUs - s.startUs;
        if (sumAttempts) {
            tokensIn += a.tokensIn;
            tokensOut += a.tokensOut;
            cost += a.costUsd;
        }
    }
    if (model.empty())
        model = lane.model;
    QStringList lines;
    lines << QStringLiteral("<b>%1</b> (%2)")
                 .arg(QString::fromStdString(lane.label).toHtmlEscaped(),
                      QString::fromStdString(lane.node.str()).toHtmlEscaped());
    if (!model.empty())
        lines << QStringLiteral("model: %1").arg(QString::fromStdString(model).toHtmlEscaped());
    if (s.round > 0)
        lines << QStringLiteral("round: %1").arg(s.round);
    lines << QStringLiteral("start: %1").arg(TimeFormat::duration(b.startUs));
    // An open bar of a run still going is running; of one that is over, it never ended.
    QString open;
    if (b.flags & TimelineModel::Open)
        open = m_model->run().summary.status == RunStatus::Running ? QStringLiteral(" (running)")
                                                                   : QStringLiteral(" (never ended)");
    lines << QStringLiteral("duration: %1%2").arg(TimeFormat::duration(b.durationUs), open);
    if (ttft >= 0)
        lines << QStringLiteral("time to first token: %1").arg(TimeFormat::duration(ttft));
    if (attempts > 1)
        lines << QStringLiteral("attempts: %1").arg(attempts);
    lines << QStringLiteral("tokens: %1 in, %2 out").arg(tokensIn).arg(tokensOut);
    lines << QStringLiteral("cost: %1").arg(TimeFormat::cost(cost));
    lines << QStringLiteral("status: %1%2")
                 .arg(StatusPalette::label(b.status),
                      (b.flags & TimelineModel::Critical) ? QStringLiteral(" · critical path") : QString());
    if (!s.error.empty())
        lines << QStringLiteral("error: %1").arg(QString::fromStdString(s.error).toHtmlEscaped());
    // What the node decided: its own span's note, and each of its rounds'
    // (an adaptive meeting's "stop: …" or "ask m3: …").
    if (!s.note.empty())
        lines << QStringLiteral("note: %1").arg(QString::fromStdString(s.note).toHtmlEscaped());
    for (const auto& seg : m_model->segments(bar)) {
        const Span& round = m_model->run().spans[seg.span];
        if (seg.kind == SpanKind::Round && !round.note.empty())
            lines << QStringLiteral("%1: %2").arg(QString::fromStdString(round.name).toHtmlEscaped(),
                                                  QString::fromStdString(round.note).toHtmlEscaped());
    }
    return lines.join(QStringLiteral("<br>"));
}

void TimelineView::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    if (!m_model) {
        p.fillRect(rect(), palette().window());
        p.drawText(rect(), Qt::AlignCenter, tr("No run"));
        return;
    }
    const QPalette pal = palette();
    TimelineRenderer::paint(p, *m_model, m_vp, {m_playheadUs, m_selectedLane, m_hoverBar, &pal, m_ghost.get()});
}

void TimelineView::resizeEvent(QResizeEvent*)
{
    const int64_t start = m_vp.startUs;
    const int64_t end = m_vp.endUs();
    m_vp.width = width();
    m_vp.height = height();
    clampScroll();
    if (m_fitted)
        fitAll();
    else
        setStart(start, double(end - start) / m_vp.plotWidth());
}

void TimelineView::wheelEvent(QWheelEvent* event)
{
    const QPoint delta = event->angleDelta();
    if (event->modifiers() & Qt::ShiftModifier) {
        m_vp.scrollY -= delta.y() / 4;
        clampScroll();
        update();
    } else if (delta.x() != 0) {
        m_fitted = false;
        setStart(m_vp.startUs - int64_t(delta.x() / 2 * m_vp.usPerPixel), m_vp.usPerPixel);
    } else if (delta.y() != 0) {
        zoomAt(std::max<double>(event->position().x(), TimelineViewport::kLabelWidth),
               std::pow(1.25, delta.y() / 120.0));
    }
    event->accept();
}

void TimelineView::mousePressEvent(QMouseEvent* event)
{
    m_pressPos = event->pos();
    m_pressStartUs = m_vp.startUs;
    m_pressScrollY = m_vp.scrollY;
    m_moved = false;
    const bool band = event->button() == Qt::RightButton ||
                      (event->button() == Qt::LeftButton && (event->modifiers() & Qt::ShiftModifier));
    m_drag = band ? Drag::Band : event->button() == Qt::LeftButton ? Drag::Pan : Drag::None;
    if (m_drag == Drag::Band) {
        if (!m_band)
            m_band = new QRubberBand(QRubberBand::Rectangle, this);
        m_band->setGeometry(QRect(m_pressPos, QSize()));
        m_band->show();
    }
}

void TimelineView::mouseMoveEvent(QMouseEvent* event)
{
    const QPoint pos = event->pos();
    if ((pos - m_pressPos).manhattanLength() > kClickSlop)
        m_moved = true;
    if (m_drag == Drag::Pan && m_moved) {
        m_fitted = false;
        m_vp.scrollY = m_pressScrollY - (pos.y() - m_pressPos.y());
        clampScroll();
        setStart(m_pressStartUs - int64_t((pos.x() - m_pressPos.x()) * m_vp.usPerPixel), m_vp.usPerPixel);
        update();
        return;
    }
    if (m_drag == Drag::Band) {
        m_band->setGeometry(QRect(QPoint(m_pressPos.x(), 0), QPoint(pos.x(), height() - 1)).normalized());
        return;
    }
    const int bar = barAt(pos);
    if (bar != m_hoverBar) {
        m_hoverBar = bar;
        update();
    }
    if (bar >= 0)
        QToolTip::showText(event->globalPosition().toPoint(), tooltipText(bar), this);
    else
        QToolTip::hideText();
}

void TimelineView::mouseReleaseEvent(QMouseEvent* event)
{
    const Drag drag = m_drag;
    m_drag = Drag::None;
    if (drag == Drag::Band) {
        m_band->hide();
        const int x0 = std::max(std::min(m_pressPos.x(), event->pos().x()), TimelineViewport::kLabelWidth);
        const int x1 = std::max(m_pressPos.x(), event->pos().x());
        if (x1 - x0 > kClickSlop)
            setViewRange(m_vp.usAt(x0), m_vp.usAt(x1));
        return;
    }
    if (drag == Drag::Pan && !m_moved && m_model) {
        const int bar = barAt(event->pos());
        if (bar >= 0) {
            const NodeId node = m_model->lane(m_model->bars()[size_t(bar)].lane).node;
            selectNode(node);
            emit spanClicked(node);
        }
    }
}

void TimelineView::mouseDoubleClickEvent(QMouseEvent*)
{
    fitAll();
}

void TimelineView::keyPressEvent(QKeyEvent* event)
{
    const double centre = TimelineViewport::kLabelWidth + m_vp.plotWidth() / 2.0;
    switch (event->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        zoomAt(centre, 1.5);
        break;
    case Qt::Key_Minus:
        zoomAt(centre, 1 / 1.5);
        break;
    case Qt::Key_Left:
        setStart(m_vp.startUs - int64_t(m_vp.plotWidth() / 8 * m_vp.usPerPixel), m_vp.usPerPixel);
        break;
    case Qt::Key_Right:
        setStart(m_vp.startUs + int64_t(m_vp.plotWidth() / 8 * m_vp.usPerPixel), m_vp.usPerPixel);
        break;
    case Qt::Key_Home:
        fitAll();
        break;
    default:
        QWidget::keyPressEvent(event);
        return;
    }
}

void TimelineView::leaveEvent(QEvent*)
{
    if (m_hoverBar >= 0) {
        m_hoverBar = -1;
        update();
    }
}

} // namespace conclave::ui
