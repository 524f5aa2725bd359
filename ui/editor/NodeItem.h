#pragma once

#include "editor/PortItem.h"

#include "conclave/model/Node.h"

#include <QColor>
#include <QGraphicsItem>

#include <optional>

namespace conclave::ui {

class TeamDocument;

// Draws one node of the document. Holds only its id and the document; every
// paint reads the node from there. Run views may add a state ring (runState).
class NodeItem : public QGraphicsItem {
public:
    static constexpr double kWidth = 160;
    static constexpr double kHeight = 56;

    NodeItem(const TeamDocument* document, NodeId id);

    const NodeId& nodeId() const { return m_id; }
    void setNodeId(NodeId id) { m_id = std::move(id); }
    // Re-reads kind and ports from the document.
    void refresh();
    PortItem* port(PortItem::Role role) const;
    QPointF portScenePos(PortItem::Role role) const;
    // A coloured ring and text for a run state, for the run views (issue 7); nullopt hides it.
    void setRunState(std::optional<QColor> colour, const QString& text = {});
    const std::optional<QColor>& runColour() const { return m_runColour; }
    const QString& runText() const { return m_runText; }

    QRectF boundingRect() const override;
    QPainterPath shape() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

    static constexpr int Type = UserType + 1;
    int type() const override { return Type; }

    // "local/math-13b · t 0.2", "moe_gate · top 2": the key settings under the title.
    static QString subtitle(const Node& node);

protected:
    QVariant itemChange(GraphicsItemChange change, const QVariant& value) override;
    void mouseDoubleClickEvent(QGraphicsSceneMouseEvent* event) override;

private:
    void placePorts();

    const TeamDocument* m_document;
    NodeId m_id;
    PortItem* m_in = nullptr;
    PortItem* m_out = nullptr;
    PortItem* m_members = nullptr;
    std::optional<QColor> m_runColour;
    QString m_runText;
};

} // namespace conclave::ui
