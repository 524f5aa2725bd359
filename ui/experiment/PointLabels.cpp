#include "experiment/PointLabels.h"

#include <QGraphicsSimpleTextItem>

#include <algorithm>

namespace conclave::ui {

void PointLabels::place(const std::vector<QGraphicsSimpleTextItem*>& labels, const std::vector<QPointF>& at,
                        const QRectF& room, const std::vector<QPointF>& others)
{
    constexpr qreal kGap = 9;
    std::vector<QRectF> taken;
    for (const auto* points : {&at, &others})
        for (const QPointF& p : *points)
            taken.emplace_back(p - QPointF(kGap, kGap), QSizeF(2 * kGap, 2 * kGap));
    const auto inside = [&room](QRectF r) {
        r.moveLeft(std::clamp(r.left(), room.left(), std::max(room.left(), room.right() - r.width())));
        r.moveTop(std::clamp(r.top(), room.top(), std::max(room.top(), room.bottom() - r.height())));
        return r;
    };
    const auto overlap = [&taken](const QRectF& r) {
        qreal area = 0;
        for (const QRectF& t : taken) {
            const QRectF common = t.intersected(r);
            area += common.isValid() ? common.width() * common.height() : 0;
        }
        return area;
    };
    for (size_t i = 0; i < labels.size() && i < at.size(); ++i) {
        const QSizeF size = labels[i]->boundingRect().size();
        const QPointF p = at[i];
        const QRectF above(p.x() - size.width() / 2, p.y() - kGap - size.height(), size.width(), size.height());
        const QRectF candidates[] = {
            inside(above),
            inside(above.translated(0, 2 * kGap + size.height())),
            inside(QRectF(p.x() + kGap, p.y() - size.height() / 2, size.width(), size.height())),
            inside(QRectF(p.x() - kGap - size.width(), p.y() - size.height() / 2, size.width(), size.height())),
        };
        QRectF chosen = candidates[0];
        qreal least = overlap(chosen);
        for (const QRectF& r : candidates) {
            const qreal covered = overlap(r);
            if (covered < least) {
                chosen = r;
                least = covered;
            }
            if (covered == 0)
                break;
        }
        taken.push_back(chosen);
        labels[i]->setPos(chosen.topLeft());
    }
}

} // namespace conclave::ui
