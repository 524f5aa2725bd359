#pragma once

#include "conclave/model/NodeKind.h"

#include <QColor>
#include <QIcon>
#include <QPainterPath>
#include <QRectF>

class QPainter;

namespace conclave::ui {

// The visual language of node kinds, shared by the canvas, the palette and
// (later) the timeline: one colour, one outline shape and one icon per kind,
// the same in light and dark themes.
class KindStyle {
public:
    static QColor colour(NodeKind kind);
    // The node's outline inside `rect`.
    static QPainterPath shape(NodeKind kind, const QRectF& rect);
    // Draws the kind's glyph in `rect` with `colour` strokes.
    static void paintGlyph(QPainter& painter, NodeKind kind, const QRectF& rect, const QColor& colour);
    // The glyph on a disc of the kind's colour, for lists and menus (any device pixel ratio).
    static QIcon icon(NodeKind kind);
    static QString title(NodeKind kind); // "Expert"
};

} // namespace conclave::ui
