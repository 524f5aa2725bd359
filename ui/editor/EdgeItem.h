#pragma once

#include <QGraphicsPathItem>

#include <cstddef>

namespace conclave::ui {

class TeamDocument;
class TeamScene;

// Draws the edge at an index of the document's edge list between its two
// node items: a curve with an arrow head; member edges dashed; a router's
// edges show their route label (double-click to edit).
class EdgeItem : public QGraphicsPathItem {
public:
    EdgeItem(const TeamDocument* document, size_t index);

    size_t index() const { return m_index; }
    // Recomputes the curve from the node items' current places.
    void updatePath();
    QRectF labelRect() const { return m_labelRect; }
    // Drawn dashed from the coordinator's members port, whether the member is an expert or a meeting.
    bool isMember() const { return m_member; }

    QRectF boundingRect() const override;
    QPainterPath shape() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

    static constexpr int Type = UserType + 2;
    int type() const override { return Type; }

protected:
    void mouseDoubleClickEvent(QGraphicsSceneMouseEvent* event) override;

private:
    TeamScene* teamScene() const;
    QString label() const;

    const TeamDocument* m_document;
    size_t m_index;
    QPointF m_end;
    QPointF m_direction; // unit vector of the curve at its end, for the arrow head
    QRectF m_labelRect;
    bool m_member = false;
};

} // namespace conclave::ui
