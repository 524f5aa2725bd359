#pragma once

#include "conclave/model/StrongId.h"

#include <QGraphicsItem>

namespace conclave::ui {

class TeamScene;

// A connection point on a node: In (left), Out (right) or Members (bottom of a
// coordinator). Dragging from one starts a connection; the scene decides.
class PortItem : public QGraphicsItem {
public:
    enum class Role { In, Out, Members };
    enum class Highlight { None, Valid, Invalid };

    PortItem(Role role, QGraphicsItem* parent);

    Role role() const { return m_role; }
    bool isSource() const { return m_role != Role::In; }
    NodeId nodeId() const;
    void setHighlight(Highlight highlight);
    Highlight highlight() const { return m_highlight; }

    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

    static constexpr int Type = UserType + 3;
    int type() const override { return Type; }

protected:
    void mousePressEvent(QGraphicsSceneMouseEvent* event) override;
    void mouseMoveEvent(QGraphicsSceneMouseEvent* event) override;
    void mouseReleaseEvent(QGraphicsSceneMouseEvent* event) override;
    void hoverEnterEvent(QGraphicsSceneHoverEvent* event) override;
    void hoverLeaveEvent(QGraphicsSceneHoverEvent* event) override;

private:
    TeamScene* teamScene() const;

    Role m_role;
    Highlight m_highlight = Highlight::None;
    bool m_hovered = false;
};

} // namespace conclave::ui
