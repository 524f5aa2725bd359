#include "editor/KindStyle.h"

#include <QPainter>
#include <QPixmap>

#include <cmath>

namespace conclave::ui {

QColor KindStyle::colour(NodeKind kind)
{
    switch (kind) {
    case NodeKind::Input:
        return QColor(0x64, 0x74, 0x8b); // slate
    case NodeKind::Router:
        return QColor(0xf5, 0x9e, 0x0b); // amber
    case NodeKind::Expert:
        return QColor(0x3b, 0x82, 0xf6); // blue
    case NodeKind::Coordinator:
        return QColor(0x8b, 0x5c, 0xf6); // violet
    case NodeKind::Aggregator:
        return QColor(0x14, 0xb8, 0xa6); // teal
    case NodeKind::Output:
        return QColor(0x22, 0xc5, 0x5e); // green
    }
    return Qt::gray;
}

QString KindStyle::title(NodeKind kind)
{
    QString name = QString::fromUtf8(toString(kind));
    name[0] = name[0].toUpper();
    return name;
}

QPainterPath KindStyle::shape(NodeKind kind, const QRectF& r)
{
    QPainterPath path;
    const double h = r.height();
    const double cut = h * 0.28;
    switch (kind) {
    case NodeKind::Input:
    case NodeKind::Output:
        path.addRoundedRect(r, h / 2, h / 2);
        break;
    case NodeKind::Router: // a hexagon pointing left and right: it forks
        path.moveTo(r.left() + cut, r.top());
        path.lineTo(r.right() - cut, r.top());
        path.lineTo(r.right(), r.center().y());
        path.lineTo(r.right() - cut, r.bottom());
        path.lineTo(r.left() + cut, r.bottom());
        path.lineTo(r.left(), r.center().y());
        path.closeSubpath();
        break;
    case NodeKind::Expert:
        path.addRoundedRect(r, 8, 8);
        break;
    case NodeKind::Coordinator: // an octagon: a meeting table
        path.moveTo(r.left() + cut, r.top());
        path.lineTo(r.right() - cut, r.top());
        path.lineTo(r.right(), r.top() + cut);
        path.lineTo(r.right(), r.bottom() - cut);
        path.lineTo(r.right() - cut, r.bottom());
        path.lineTo(r.left() + cut, r.bottom());
        path.lineTo(r.left(), r.bottom() - cut);
        path.lineTo(r.left(), r.top() + cut);
        path.closeSubpath();
        break;
    case NodeKind::Aggregator: // a funnel: wide where inputs arrive, narrow where one result leaves
        path.moveTo(r.left(), r.top());
        path.lineTo(r.right() - 6, r.top() + h * 0.14);
        path.quadTo(r.right(), r.top() + h * 0.16, r.right(), r.top() + h * 0.3);
        path.lineTo(r.right(), r.bottom() - h * 0.3);
        path.quadTo(r.right(), r.bottom() - h * 0.16, r.right() - 6, r.bottom() - h * 0.14);
        path.lineTo(r.left(), r.bottom());
        path.closeSubpath();
        break;
    }
    return path;
}

void KindStyle::paintGlyph(QPainter& p, NodeKind kind, const QRectF& r, const QColor& colour)
{
    p.save();
    QPen pen(colour, std::max(1.5, r.width() / 9), Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin);
    p.setPen(pen);
    p.setBrush(Qt::NoBrush);
    const QPointF c = r.center();
    const double s = r.width() / 2;
    switch (kind) {
    case NodeKind::Input: // an arrow coming in
        p.drawLine(QPointF(c.x() - s * 0.7, c.y()), QPointF(c.x() + s * 0.5, c.y()));
        p.drawPolyline(QPolygonF{{c.x(), c.y() - s * 0.5}, {c.x() + s * 0.5, c.y()}, {c.x(), c.y() + s * 0.5}});
        p.drawLine(QPointF(c.x() + s * 0.75, c.y() - s * 0.6), QPointF(c.x() + s * 0.75, c.y() + s * 0.6));
        break;
    case NodeKind::Router: // a fork
        p.drawLine(QPointF(c.x() - s * 0.7, c.y()), QPointF(c.x() - s * 0.1, c.y()));
        p.drawLine(QPointF(c.x() - s * 0.1, c.y()), QPointF(c.x() + s * 0.7, c.y() - s * 0.55));
        p.drawLine(QPointF(c.x() - s * 0.1, c.y()), QPointF(c.x() + s * 0.7, c.y() + s * 0.55));
        break;
    case NodeKind::Expert: // a person
        p.drawEllipse(QPointF(c.x(), c.y() - s * 0.3), s * 0.3, s * 0.3);
        p.drawArc(QRectF(c.x() - s * 0.65, c.y() + s * 0.15, s * 1.3, s * 1.1), 0, 180 * 16);
        break;
    case NodeKind::Coordinator: // three around a table
        p.setBrush(colour);
        for (int i = 0; i < 3; ++i) {
            const double a = -M_PI / 2 + i * 2 * M_PI / 3;
            p.drawEllipse(QPointF(c.x() + std::cos(a) * s * 0.5, c.y() + std::sin(a) * s * 0.5), s * 0.16, s * 0.16);
        }
        break;
    case NodeKind::Aggregator: // a funnel
        p.drawPolygon(QPolygonF{{c.x() - s * 0.7, c.y() - s * 0.6},
                                {c.x() + s * 0.7, c.y() - s * 0.6},
                                {c.x() + s * 0.15, c.y() + s * 0.05},
                                {c.x() + s * 0.15, c.y() + s * 0.65},
                                {c.x() - s * 0.15, c.y() + s * 0.5},
                                {c.x() - s * 0.15, c.y() + s * 0.05}});
        break;
    case NodeKind::Output: // a check mark
        p.drawPolyline(QPolygonF{
            {c.x() - s * 0.6, c.y()}, {c.x() - s * 0.15, c.y() + s * 0.45}, {c.x() + s * 0.65, c.y() - s * 0.5}});
        break;
    }
    p.restore();
}

QIcon KindStyle::icon(NodeKind kind)
{
    QIcon icon;
    for (const int size : {16, 24, 32, 48, 64}) {
        QPixmap pixmap(size, size);
        pixmap.fill(Qt::transparent);
        QPainter p(&pixmap);
        p.setRenderHint(QPainter::Antialiasing);
        p.setPen(Qt::NoPen);
        p.setBrush(colour(kind));
        p.drawEllipse(QRectF(0.5, 0.5, size - 1, size - 1));
        const double inset = size * 0.22;
        paintGlyph(p, kind, QRectF(inset, inset, size - 2 * inset, size - 2 * inset), Qt::white);
        p.end();
        icon.addPixmap(pixmap);
    }
    return icon;
}

} // namespace conclave::ui
