#include "editor/CanvasView.h"

#include "editor/TeamScene.h"

#include <QMimeData>
#include <QScrollBar>
#include <QWheelEvent>

#include <cmath>

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
}

double CanvasView::zoom() const
{
    return transform().m11();
}

void CanvasView::setZoom(double zoom, const QPointF* anchorScene)
{
    zoom = std::clamp(zoom, kMinZoom, kMaxZoom);
    const QPointF anchor = anchorScene ? *anchorScene : visibleCentre();
    setTransform(QTransform::fromScale(zoom, zoom));
    if (!anchorScene)
        centerOn(anchor);
    emit zoomChanged(zoom);
}

void CanvasView::zoomBy(double factor)
{
    const double target = std::clamp(zoom() * factor, kMinZoom, kMaxZoom);
    scale(target / zoom(), target / zoom());
    emit zoomChanged(zoom());
}

void CanvasView::fitToTeam()
{
    QRectF bounds;
    for (auto* item : scene()->items()) {
        if (!item->parentItem())
            bounds |= item->sceneBoundingRect();
    }
    if (bounds.isEmpty()) {
        setZoom(1.0);
        centerOn(0, 0);
        return;
    }
    fitInView(bounds.adjusted(-40, -40, 40, 40), Qt::KeepAspectRatio);
    if (zoom() > 1.25)
        setZoom(1.25);
    centerOn(bounds.center());
    emit zoomChanged(zoom());
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
