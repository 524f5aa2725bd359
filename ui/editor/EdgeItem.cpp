#include "editor/EdgeItem.h"

#include "editor/NodeItem.h"
#include "editor/TeamScene.h"

#include "document/TeamDocument.h"

#include <QFontMetricsF>
#include <QGraphicsSceneMouseEvent>
#include <QPainter>
#include <QPainterPathStroker>
#include <QStyleOptionGraphicsItem>

#include <cmath>

namespace conclave::ui {

EdgeItem::EdgeItem(const TeamDocument* document, size_t index) : m_document(document), m_index(index)
{
    setFlags(ItemIsSelectable);
    setZValue(0);
}

TeamScene* EdgeItem::teamScene() const
{
    return static_cast<TeamScene*>(scene());
}

QString EdgeItem::label() const
{
    const auto& edges = m_document->team().edges;
    if (m_index >= edges.size() || !edges[m_index].when)
        return {};
    return QString::fromStdString(*edges[m_index].when);
}

void EdgeItem::updatePath()
{
    const auto& edges = m_document->team().edges;
    if (m_index >= edges.size() || !scene())
        return;
    const auto& e = edges[m_index];
    m_member = e.isMember();
    const NodeItem* from = teamScene()->nodeItem(e.from);
    const NodeItem* to = teamScene()->nodeItem(e.to);
    if (!from || !to) {
        setPath({});
        return;
    }
    prepareGeometryChange();
    const QPointF a = from->portScenePos(m_member ? PortItem::Role::Members : PortItem::Role::Out);
    const QPointF b = to->portScenePos(PortItem::Role::In);
    QPainterPath path(a);
    const double dx = std::max(40.0, std::abs(b.x() - a.x()) * 0.5);
    const QPointF c1 = m_member ? a + QPointF(0, dx) : a + QPointF(dx, 0);
    const QPointF c2 = b - QPointF(dx, 0);
    path.cubicTo(c1, c2, b);
    setPath(path);
    m_end = b;
    const QPointF d = b - c2; // the curve's tangent at its end
    const double len = std::hypot(d.x(), d.y());
    m_direction = len > 0 ? d / len : QPointF(1, 0);
    const QString text = label();
    if (text.isEmpty()) {
        m_labelRect = {};
    } else {
        static const QFontMetricsF metrics = [] {
            QFont font;
            font.setPointSizeF(8);
            return QFontMetricsF(font);
        }();
        // At t = 0.7: a router's edges fan out from one port, so their labels sit apart nearer the targets.
        const double t = 0.7;
        const double u = 1 - t;
        const QPointF mid = u * u * u * a + 3 * u * u * t * c1 + 3 * u * t * t * c2 + t * t * t * b;
        const double w = metrics.horizontalAdvance(text) + 12;
        m_labelRect = QRectF(mid.x() - w / 2, mid.y() - 9, w, 18);
    }
}

QRectF EdgeItem::boundingRect() const
{
    return QGraphicsPathItem::boundingRect().united(m_labelRect).adjusted(-8, -8, 8, 8);
}

QPainterPath EdgeItem::shape() const
{
    QPainterPathStroker stroker;
    stroker.setWidth(10);
    QPainterPath s = stroker.createStroke(path());
    if (!m_labelRect.isEmpty())
        s.addRect(m_labelRect);
    return s;
}

void EdgeItem::paint(QPainter* p, const QStyleOptionGraphicsItem*, QWidget*)
{
    const QPalette palette = scene()->palette();
    QColor colour = palette.color(QPalette::Text);
    colour.setAlphaF(0.55);
    if (isSelected())
        colour = palette.color(QPalette::Highlight);
    p->setRenderHint(QPainter::Antialiasing);
    QPen pen(colour, isSelected() ? 2.6 : 1.6);
    if (m_member) {
        pen.setStyle(Qt::DashLine);
        pen.setColor(isSelected() ? colour : QColor(0x8b, 0x5c, 0xf6));
    }
    p->setPen(pen);
    p->setBrush(Qt::NoBrush);
    p->drawPath(path());
    // Arrow head.
    const QPointF n(-m_direction.y(), m_direction.x());
    const QPointF base = m_end - m_direction * 9;
    p->setPen(Qt::NoPen);
    p->setBrush(pen.color());
    p->drawPolygon(QPolygonF{m_end, base + n * 4.5, base - n * 4.5});
    const QString text = label();
    if (!text.isEmpty()) {
        QFont font = p->font();
        font.setPointSizeF(8);
        p->setFont(font);
        QColor amber(0xf5, 0x9e, 0x0b);
        p->setPen(QPen(amber, 1.2));
        p->setBrush(palette.color(QPalette::Base));
        p->drawRoundedRect(m_labelRect, 9, 9);
        p->setPen(palette.color(QPalette::Text));
        p->drawText(m_labelRect, Qt::AlignCenter, text);
    }
}

void EdgeItem::mouseDoubleClickEvent(QGraphicsSceneMouseEvent* event)
{
    emit teamScene()->edgeActivated(m_index);
    event->accept();
}

} // namespace conclave::ui
