#pragma once

#include "editor/PortItem.h"

#include "conclave/model/StrongId.h"

#include <QGraphicsScene>

#include <optional>
#include <unordered_map>
#include <vector>

class QGraphicsPathItem;

namespace conclave::ui {

class EdgeItem;
class NodeItem;
class TeamDocument;

// The canvas's scene: one NodeItem per node and one EdgeItem per edge of the
// document. It fills itself from the document and afterwards only reacts to
// its signals; user gestures (drags, connections) become document requests.
// It never changes team data itself.
class TeamScene : public QGraphicsScene {
    Q_OBJECT

public:
    static constexpr double kGrid = 20;

    explicit TeamScene(TeamDocument* document, QObject* parent = nullptr);

    TeamDocument* document() const { return m_document; }
    NodeItem* nodeItem(const NodeId& id) const;
    size_t nodeItemCount() const { return m_nodes.size(); }
    const std::vector<EdgeItem*>& edgeItems() const { return m_edges; }
    // Where a node is drawn: its position, or a place in a grid by its index when it has none.
    QPointF placeOf(const NodeId& id) const;

    std::vector<NodeId> selectedNodes() const; // in team order
    std::vector<size_t> selectedEdges() const;
    void selectNodes(const std::vector<NodeId>& ids);

    bool snapToGrid() const { return m_snap; }
    void setSnapToGrid(bool snap) { m_snap = snap; }
    bool isDragging() const { return m_dragging; }

    // Connecting: why `target` cannot take a connection from `source` (either may be
    // the input end), or nullopt; connectPorts asks the document to add the edge.
    std::optional<QString> portRefusal(const PortItem* source, const PortItem* target) const;
    bool connectPorts(const PortItem* source, const PortItem* target, QString* reason = nullptr);
    void beginConnection(PortItem* source);
    void updateConnection(const QPointF& scenePos);
    void endConnection(const QPointF& scenePos);
    void cancelConnection();
    bool isConnecting() const { return m_source != nullptr; }

    void nodeItemMoved(NodeItem* item);

signals:
    void statusMessage(const QString& message);
    void nodeActivated(const conclave::NodeId& id);
    void edgeActivated(size_t index);

protected:
    void mousePressEvent(QGraphicsSceneMouseEvent* event) override;
    void mouseReleaseEvent(QGraphicsSceneMouseEvent* event) override;

private:
    void rebuild();
    void addNodeItem(const NodeId& id);
    void removeNodeItem(const NodeId& id);
    void syncEdges();
    void syncNodePositions(const std::vector<NodeId>& ids);
    void renameNodeItem(const NodeId& from, const NodeId& to);
    void refreshBadges();
    void commitDrag();
    PortItem* portAt(const QPointF& scenePos, const PortItem* source) const;
    std::optional<QString> portlessRefusal(const QPointF& scenePos, const PortItem* source) const;
    void clearConnectionFeedback();

    TeamDocument* m_document;
    std::unordered_map<NodeId, NodeItem*> m_nodes;
    std::vector<EdgeItem*> m_edges;
    std::unordered_multimap<NodeId, EdgeItem*> m_edgesAt;
    bool m_snap = true;
    bool m_dragging = false;
    bool m_syncing = false;
    PortItem* m_source = nullptr;
    QGraphicsPathItem* m_rubberLine = nullptr;
    std::vector<PortItem*> m_highlighted;
    std::vector<NodeItem*> m_movedDuringSync; // edges are updated once after a batch of moves
};

} // namespace conclave::ui
