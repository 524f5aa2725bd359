#include "studio/PaletteIconEngine.h"

#include <QApplication>
#include <QPainter>
#include <QPainterPath>
#include <QPalette>
#include <QPixmap>

namespace conclave::ui {

QIcon PaletteIconEngine::icon(Glyph glyph)
{
    return QIcon(new PaletteIconEngine(glyph));
}

void PaletteIconEngine::paint(QPainter* painter, const QRect& rect, QIcon::Mode mode, QIcon::State /*state*/)
{
    const auto group = mode == QIcon::Disabled ? QPalette::Disabled : QPalette::Active;
    const QColor color = QApplication::palette().color(group, QPalette::ButtonText);
    // A square area in the middle of the rect, with a margin of a sixth.
    const qreal side = qMin(rect.width(), rect.height());
    const QRectF box(rect.x() + (rect.width() - side) / 2.0 + side / 6.0,
                     rect.y() + (rect.height() - side) / 2.0 + side / 6.0, side * 2.0 / 3.0, side * 2.0 / 3.0);
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);
    painter->setPen(Qt::NoPen);
    painter->setBrush(color);
    if (m_glyph == Glyph::Play) {
        QPainterPath triangle;
        triangle.moveTo(box.left() + box.width() * 0.1, box.top());
        triangle.lineTo(box.right(), box.center().y());
        triangle.lineTo(box.left() + box.width() * 0.1, box.bottom());
        triangle.closeSubpath();
        painter->drawPath(triangle);
    } else {
        painter->drawRect(
            box.adjusted(box.width() * 0.08, box.height() * 0.08, -box.width() * 0.08, -box.height() * 0.08));
    }
    painter->restore();
}

QPixmap PaletteIconEngine::pixmap(const QSize& size, QIcon::Mode mode, QIcon::State state)
{
    QPixmap pixmap(size);
    pixmap.fill(Qt::transparent);
    QPainter painter(&pixmap);
    paint(&painter, QRect(QPoint(0, 0), size), mode, state);
    return pixmap;
}

} // namespace conclave::ui
