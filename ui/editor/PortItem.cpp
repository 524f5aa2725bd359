#include "editor/PortItem.h"

#include "editor/NodeItem.h"
#include "editor/TeamScene.h"

#include <QCursor>
#include <QGraphicsScene>
#include <QGraphicsSceneMouseEvent>
#include <QPainter>
#include <QPalette>

namespace conclave::ui {

namespace {
constexpr double kRadius = 6;
}

PortItem::PortItem(Role role, QGraphicsItem* parent) : QGraphicsItem(parent), m_role(role)
{
    setAcceptHoverEvents(true);
    setCursor(QCursor(Qt::CrossCursor));
    setZValue(2);
    setToolTip(role == Role::In    ? QObject::tr("Input: drop a connection here")
               : role == Role::Out ? QObject::tr("Output: drag to another node's input to connect")
                                   : QObject::tr("Members: drag to an expert to make it a member (from a cascade "
                                                 "or adaptive coordinator, to a coordinator too)"));
}

NodeId PortItem::nodeId() const
{
    return static_cast<const NodeItem*>(parentItem())->nodeId();
}

TeamScene* PortItem::teamScene() const
{
    return static_cast<TeamScene*>(scene());
}

void PortItem::setHighlight(Highlight highlight)
{
    if (m_highlight == highlight)
        return;
    m_highlight = highlight;
    update();
}

QRectF PortItem::boundingRect() const
{
    const double r = kRadius * 2; // room for the highlight ring
    return QRectF(-r, -r, 2 * r, 2 * r);
}

void PortItem::paint(QPainter* p, const QStyleOptionGraphicsItem*, QWidget*)
{
    const auto palette = scene() ? scene()->palette() : QPalette();
    const QColor edge = palette.color(QPalette::Text);
    QColor fill = palette.color(QPalette::Base);
    double r = kRadius;
    if (m_highlight == Highlight::Valid) {
        p->setPen(Qt::NoPen);
        p->setBrush(QColor(0x22, 0xc5, 0x5e, 90));
        p->drawEllipse(QPointF(0, 0), kRadius * 2, kRadius * 2);
        fill = QColor(0x22, 0xc5, 0x5e);
        r = kRadius * 1.3;
    } else if (m_hovered) {
        fill = palette.color(QPalette::Highlight);
        r = kRadius * 1.2;
    }
    p->setOpacity(m_highlight == Highlight::Invalid ? 0.3 : 1.0);
    p->setPen(QPen(edge, 1.5));
    p->setBrush(fill);
    if (m_role == Role::Members) {
        p->drawPolygon(QPolygonF{{0, -r}, {r, 0}, {0, r}, {-r, 0}});
    } else {
        p->drawEllipse(QPointF(0, 0), r, r);
    }
}

void PortItem::mousePressEvent(QGraphicsSceneMouseEvent* event)
{
    if (event->button() != Qt::LeftButton) {
        event->ignore();
        return;
    }
    teamScene()->beginConnection(this);
    event->accept();
}

void PortItem::mouseMoveEvent(QGraphicsSceneMouseEvent* event)
{
    teamScene()->updateConnection(event->scenePos());
}

void PortItem::mouseReleaseEvent(QGraphicsSceneMouseEvent* event)
{
    teamScene()->endConnection(event->scenePos());
}

void PortItem::hoverEnterEvent(QGraphicsSceneHoverEvent*)
{
    m_hovered = true;
    update();
}

void PortItem::hoverLeaveEvent(QGraphicsSceneHoverEvent*)
{
    m_hovered = false;
    update();
}

} // namespace conclave::ui
