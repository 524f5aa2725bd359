#include "editor/CanvasView.h"

#include "editor/NodeItem.h"
#include "editor/TeamScene.h"

#include <QMimeData>
#include <QScrollBar>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>
#include <limits>

namespace conclave::ui {

namespace {
constexpr double kMinZoom = 0.05;
constexpr double kMaxZoom = 4.0;
} // namespace

CanvasView::CanvasView(TeamScene* scene, QWidget* parent) : QGraphicsView(scene, parent)
{
    setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
    setDragMode(QGraphicsView::RubberBandDrag);
    setRubberBandSelectionMode(Qt::IntersectsItemShape);
    setTransformationAnchor(QGraphicsView::AnchorUnderMouse);
    setViewportUpdateMode(QGraphicsView::SmartViewportUpdate);
    setOptimizationFlags(QGraphicsView::DontSavePainterState);
    setAcceptDrops(true);
    setFocusPolicy(Qt::StrongFocus);
    setFrameShape(QFrame::NoFrame);
    // Scrolled by the user (a scroll bar, the arrow keys): no longer fitted.
    for (QScrollBar* bar : {horizontalScrollBar(), verticalScrollBar()})
        connect(bar, &QScrollBar::actionTriggered, this, [this] { m_fitted = false; });
}

double CanvasView::zoom() const
{
    return transform().m11();
}

void CanvasView::setZoom(double zoom, const QPointF* anchorScene)
{
    m_fitted = false;
    zoom = std::clamp(zoom, kMinZoom, kMaxZoom);
    const QPointF anchor = anchorScene ? *anchorScene : visibleCentre();
    setTransform(QTransform::fromScale(zoom, zoom));
    if (!anchorScene)
        centerOn(anchor);
    emit zoomChanged(zoom);
}

void CanvasView::zoomBy(double factor)
{
    m_fitted = false;
    const double target = std::clamp(zoom() * factor, kMinZoom, kMaxZoom);
    scale(target / zoom(), target / zoom());
    emit zoomChanged(zoom());
}

double CanvasView::minFitZoom()
{
    return NodeItem::kTitleDetailLod;
}

double CanvasView::fitZoom(const QSizeF& viewport, const QRectF& teamBounds)
{
    const QRectF framed = teamBounds.adjusted(-kFitMargin, -kFitMargin, kFitMargin, kFitMargin);
    const double whole = std::min(viewport.width() / framed.width(), viewport.height() / framed.height());
    return std::clamp(whole, minFitZoom(), kMaxFitZoom);
}

QRectF CanvasView::teamBounds() const
{
    QRectF bounds;
    for (auto* item : scene()->items()) {
        if (!item->parentItem())
            bounds |= item->sceneBoundingRect();
    }
    return bounds;
}

void CanvasView::fitToTeam()
{
    const QRectF bounds = teamBounds();
    if (bounds.isEmpty()) {
        setZoom(1.0);
        centerOn(0, 0);
        return;
    }
    // Twice at most: the new zoom may show or hide a scroll bar, which resizes the viewport.
    for (int pass = 0; pass < 2; ++pass) {
        const QSize viewportSize = viewport()->size();
        const double z = fitZoom(viewportSize, bounds);
        setTransform(QTransform::fromScale(z, z));
        centerOn(fitCentre(bounds, z));
        if (viewport()->size() == viewportSize)
            break;
    }
    m_fitted = true;
    emit zoomChanged(zoom());
}

void CanvasView::resizeEvent(QResizeEvent* event)
{
    QGraphicsView::resizeEvent(event);
    // Fitted and not zoomed or panned since: the team stays framed as the canvas grows or shrinks (the
    // window laid out after a file opened, a run tab opening below).
    if (m_fitted)
        fitToTeam();
}

QPointF CanvasView::fitCentre(const QRectF& bounds, double zoom) const
{
    const QRectF framed = bounds.adjusted(-kFitMargin, -kFitMargin, kFitMargin, kFitMargin);
    const QSizeF visible = QSizeF(viewport()->size()) / zoom;
    QPointF centre = bounds.center();
    if (framed.width() > visible.width()) // the flow starts at the left: show its start
        centre.setX(framed.left() + visible.width() / 2);
    if (framed.height() > visible.height()) {
        // Level with the leftmost column of nodes, as far as the team reaches.
        double left = std::numeric_limits<double>::max();
        for (auto* item : scene()->items()) {
            if (item->type() == NodeItem::Type)
                left = std::min(left, item->scenePos().x());
        }
        QRectF column;
        for (auto* item : scene()->items()) {
            if (item->type() == NodeItem::Type && item->scenePos().x() < left + NodeItem::kWidth / 2)
                column |= item->mapRectToScene(QRectF(0, 0, NodeItem::kWidth, NodeItem::kHeight));
        }
        const double y = column.isNull() ? bounds.center().y() : column.center().y();
        centre.setY(std::clamp(y, framed.top() + visible.height() / 2, framed.bottom() - visible.height() / 2));
    }
    return centre;
}

void CanvasView::centreOn(const QPointF& scenePos)
{
    centerOn(scenePos);
}

QPointF CanvasView::visibleCentre() const
{
    return mapToScene(viewport()->rect().center());
}

void CanvasView::wheelEvent(QWheelEvent* event)
{
    // Wheel zooms (about the cursor); with Shift or a horizontal swipe it scrolls.
    if (event->modifiers() & Qt::ShiftModifier || event->angleDelta().x() != 0) {
        m_fitted = false;
        QGraphicsView::wheelEvent(event);
        return;
    }
    const double steps = event->angleDelta().y() / 120.0;
    zoomBy(std::pow(1.15, steps));
    event->accept();
}

void CanvasView::startPan(const QPoint& at)
{
    m_panning = true;
    m_fitted = false;
    m_panFrom = at;
    viewport()->setCursor(Qt::ClosedHandCursor);
}

void CanvasView::mousePressEvent(QMouseEvent* event)
{
    if (event->button() == Qt::MiddleButton || (event->button() == Qt::LeftButton && m_spaceHeld)) {
        startPan(event->pos());
        event->accept();
        return;
    }
    QGraphicsView::mousePressEvent(event);
}

void CanvasView::mouseMoveEvent(QMouseEvent* event)
{
    if (m_panning) {
        const QPoint delta = event->pos() - m_panFrom;
        m_panFrom = event->pos();
        horizontalScrollBar()->setValue(horizontalScrollBar()->value() - delta.x());
        verticalScrollBar()->setValue(verticalScrollBar()->value() - delta.y());
        event->accept();
        return;
    }
    QGraphicsView::mouseMoveEvent(event);
}

void CanvasView::mouseReleaseEvent(QMouseEvent* event)
{
    if (m_panning) {
        m_panning = false;
        viewport()->setCursor(m_spaceHeld ? Qt::OpenHandCursor : Qt::ArrowCursor);
        event->accept();
        return;
    }
    QGraphicsView::mouseReleaseEvent(event);
}

void CanvasView::keyPressEvent(QKeyEvent* event)
{
    auto* teamScene = static_cast<TeamScene*>(scene());
    if (event->key() == Qt::Key_Escape && teamScene->isConnecting()) {
        teamScene->cancelConnection();
        event->accept();
        return;
    }
    if (event->key() == Qt::Key_Space && !event->isAutoRepeat()) {
        m_spaceHeld = true;
        viewport()->setCursor(Qt::OpenHandCursor);
        event->accept();
        return;
    }
    QGraphicsView::keyPressEvent(event);
}

void CanvasView::keyReleaseEvent(QKeyEvent* event)
{
    if (event->key() == Qt::Key_Space && !event->isAutoRepeat()) {
        m_spaceHeld = false;
        viewport()->setCursor(Qt::ArrowCursor);
        event->accept();
        return;
    }
    QGraphicsView::keyReleaseEvent(event);
}

void CanvasView::drawBackground(QPainter* painter, const QRectF& rect)
{
    const QPalette pal = palette();
    painter->fillRect(rect, pal.color(QPalette::Window));
    const double grid = TeamScene::kGrid;
    const double step = zoom() < 0.75 ? grid * 5 : grid;
    QColor dot = pal.color(QPalette::Text);
    dot.setAlphaF(0.12);
    QColor major = pal.color(QPalette::Text);
    major.setAlphaF(0.22);
    const double left = std::floor(rect.left() / step) * step;
    const double top = std::floor(rect.top() / step) * step;
    if ((rect.width() / step) * (rect.height() / step) > 60000)
        return; // too many dots to be useful
    painter->setPen(Qt::NoPen);
    for (double x = left; x < rect.right(); x += step) {
        for (double y = top; y < rect.bottom(); y += step) {
            const bool isMajor = std::fmod(std::abs(x), grid * 5) < 0.5 && std::fmod(std::abs(y), grid * 5) < 0.5;
            painter->setBrush(isMajor ? major : dot);
            const double r = (isMajor ? 1.6 : 1.1) / zoom();
            painter->drawEllipse(QPointF(x, y), r, r);
        }
    }
}

void CanvasView::dragEnterEvent(QDragEnterEvent* event)
{
    if (event->mimeData()->hasFormat(kPaletteMime) || event->mimeData()->hasUrls())
        event->acceptProposedAction();
    else
        QGraphicsView::dragEnterEvent(event);
}

void CanvasView::dragMoveEvent(QDragMoveEvent* event)
{
    if (event->mimeData()->hasFormat(kPaletteMime) || event->mimeData()->hasUrls())
        event->acceptProposedAction();
    else
        QGraphicsView::dragMoveEvent(event);
}

void CanvasView::dropEvent(QDropEvent* event)
{
    const QMimeData* mime = event->mimeData();
    if (mime->hasFormat(kPaletteMime)) {
        emit paletteItemDropped(QString::fromUtf8(mime->data(kPaletteMime)), mapToScene(event->position().toPoint()));
        event->acceptProposedAction();
        return;
    }
    if (mime->hasUrls()) {
        QStringList paths;
        for (const auto& url : mime->urls()) {
            if (url.isLocalFile())
                paths << url.toLocalFile();
        }
        if (!paths.isEmpty())
            emit filesDropped(paths);
        event->acceptProposedAction();
        return;
    }
    QGraphicsView::dropEvent(event);
}

} // namespace conclave::ui
