#pragma once

#include <QPointF>
#include <QRectF>

#include <vector>

class QGraphicsSimpleTextItem;

namespace conclave::ui {

// Names beside a chart's points (the Pareto chart, the fidelity chart),
// placed greedily in the order given: each takes the first place beside its
// point (above, below, right or left) that covers no name placed before and
// no point (nor any of `others`, points drawn without a name); when none is free, the one that covers least. Every place stays
// inside `room` (the plot area), slid back in when it would leave it.
struct PointLabels {
    // `at[i]` is where label i's point is drawn, in the chart's coordinates.
    static void place(const std::vector<QGraphicsSimpleTextItem*>& labels, const std::vector<QPointF>& at,
                      const QRectF& room, const std::vector<QPointF>& others = {});
};

} // namespace conclave::ui
