#include "editor/TeamScene.h"

#include "editor/EdgeItem.h"
#include "editor/NodeItem.h"

#include "document/TeamDocument.h"

#include <QGraphicsPathItem>
#include <QGraphicsSceneMouseEvent>

#include <algorithm>
#include <set>

namespace conclave::ui {

TeamScene::TeamScene(TeamDocument* document, QObject* parent) : QGraphicsScene(parent), m_document(document)
{
    setItemIndexMethod(QGraphicsScene::BspTreeIndex);
    connect(document, &TeamDocument::teamReset, this, &TeamScene::rebuild);
    connect(document, &TeamDocument::nodeAdded, this, &TeamScene::addNodeItem);
    connect(document, &TeamDocument::nodeRemoved, this, &TeamScene::removeNodeItem);
    connect(document, &TeamDocument::nodeChanged, this, [this](const NodeId& id) {
        if (auto* item = nodeItem(id))
            item->refresh();
    });
    connect(document, &TeamDocument::nodesMoved, this, &TeamScene::syncNodePositions);
    connect(document, &TeamDocument::nodeRenamed, this, &TeamScene::renameNodeItem);
    connect(document, &TeamDocument::edgesChanged, this, &TeamScene::syncEdges);
    connect(document, &TeamDocument::problemsChanged, this, &TeamScene::refreshBadges);
    rebuild();
}

NodeItem* TeamScene::nodeItem(const NodeId& id) const
{
    const auto it = m_nodes.find(id);
    return it == m_nodes.end() ? nullptr : it->second;
}

QPointF TeamScene::placeOf(const NodeId& id) const
{
    const Node* n = m_document->node(id);
    if (n && n->pos)
        return QPointF(n->pos->x, n->pos->y);
    const auto index = m_document->team().indexOf(id).value_or(0);
    return QPointF(double(index % 6) * 220, double(index / 6) * 110);
}

void TeamScene::rebuild()
{
    clearConnectionFeedback();
    clearSelection();
    for (auto* e : m_edges)
        delete e;
    m_edges.clear();
    m_edgesAt.clear();
    for (auto& [id, item] : m_nodes)
        delete item;
    m_nodes.clear();
    // One creation path: a loaded team's nodes are added exactly as a new node is.
    for (const auto& n : m_document->team().nodes)
        addNodeItem(n.id);
    syncEdges();
    // Leave a margin round the team so that it can be dragged outwards.
    setSceneRect(itemsBoundingRect().adjusted(-2000, -2000, 2000, 2000));
}

void TeamScene::addNodeItem(const NodeId& id)
{
    if (m_nodes.contains(id) || !m_document->node(id))
        return;
    auto* item = new NodeItem(m_document, id);
    m_syncing = true;
    item->setPos(placeOf(id));
    m_syncing = false;
    addItem(item);
    m_nodes.emplace(id, item);
}

void TeamScene::removeNodeItem(const NodeId& id)
{
    const auto it = m_nodes.find(id);
    if (it == m_nodes.end())
        return;
    if (m_source)
        clearConnectionFeedback(); // the highlighted ports may belong to it
    delete it->second;
    m_nodes.erase(it);
}

void TeamScene::renameNodeItem(const NodeId& from, const NodeId& to)
{
    const auto it = m_nodes.find(from);
    if (it == m_nodes.end())
        return;
    NodeItem* item = it->second;
    m_nodes.erase(it);
    item->setNodeId(to);
    item->refresh();
    m_nodes.emplace(to, item);
}

void TeamScene::syncEdges()
{
    const auto& edges = m_document->team().edges;
    const bool sameCount = edges.size() == m_edges.size();
    if (!sameCount) {
        for (auto* e : m_edges)
            e->setSelected(false); // indices now point elsewhere
    }
    while (m_edges.size() > edges.size()) {
        delete m_edges.back();
        m_edges.pop_back();
    }
    while (m_edges.size() < edges.size()) {
        auto* item = new EdgeItem(m_document, m_edges.size());
        addItem(item);
        m_edges.push_back(item);
    }
    m_edgesAt.clear();
    for (size_t i = 0; i < edges.size(); ++i) {
        m_edgesAt.emplace(edges[i].from, m_edges[i]);
        m_edgesAt.emplace(edges[i].to, m_edges[i]);
        m_edges[i]->updatePath();
        m_edges[i]->update();
    }
}

void TeamScene::syncNodePositions(const std::vector<NodeId>& ids)
{
    m_syncing = true;
    for (const auto& id : ids) {
        if (auto* item = nodeItem(id))
            item->setPos(placeOf(id));
    }
    m_syncing = false;
    std::set<EdgeItem*> edges;
    for (auto* item : m_movedDuringSync) {
        const auto [begin, end] = m_edgesAt.equal_range(item->nodeId());
        for (auto it = begin; it != end; ++it)
            edges.insert(it->second);
    }
    m_movedDuringSync.clear();
    for (auto* edge : edges)
        edge->updatePath();
}

void TeamScene::nodeItemMoved(NodeItem* item)
{
    if (m_syncing) {
        m_movedDuringSync.push_back(item);
        return;
    }
    const auto [begin, end] = m_edgesAt.equal_range(item->nodeId());
    for (auto it = begin; it != end; ++it)
        it->second->updatePath();
}

void TeamScene::refreshBadges()
{
    for (auto& [id, item] : m_nodes)
        item->update();
}

std::vector<NodeId> TeamScene::selectedNodes() const
{
    std::set<NodeId> chosen;
    for (auto* item : selectedItems()) {
        if (item->type() == NodeItem::Type)
            chosen.insert(static_cast<NodeItem*>(item)->nodeId());
    }
    std::vector<NodeId> ids;
    for (const auto& n : m_document->team().nodes) {
        if (chosen.contains(n.id))
            ids.push_back(n.id);
    }
    return ids;
}

std::vector<size_t> TeamScene::selectedEdges() const
{
    std::vector<size_t> out;
    for (auto* item : selectedItems()) {
        if (item->type() == EdgeItem::Type)
            out.push_back(static_cast<EdgeItem*>(item)->index());
    }
    std::sort(out.begin(), out.end());
    return out;
}

void TeamScene::selectNodes(const std::vector<NodeId>& ids)
{
    clearSelection();
    for (const auto& id : ids) {
        if (auto* item = nodeItem(id))
            item->setSelected(true);
    }
}

void TeamScene::mousePressEvent(QGraphicsSceneMouseEvent* event)
{
    QGraphicsScene::mousePressEvent(event);
    m_dragging =
        event->button() == Qt::LeftButton && mouseGrabberItem() && mouseGrabberItem()->type() == NodeItem::Type;
}

void TeamScene::mouseReleaseEvent(QGraphicsSceneMouseEvent* event)
{
    QGraphicsScene::mouseReleaseEvent(event);
    if (m_dragging) {
        m_dragging = false;
        commitDrag();
    }
}

void TeamScene::commitDrag()
{
    std::vector<std::pair<NodeId, Position>> moves;
    for (auto* item : selectedItems()) {
        if (item->type() != NodeItem::Type)
            continue;
        auto* node = static_cast<NodeItem*>(item);
        if (node->pos() != placeOf(node->nodeId()))
            moves.emplace_back(node->nodeId(), Position{node->pos().x(), node->pos().y()});
    }
    if (!moves.empty())
        m_document->requestMove(moves);
}

} // namespace conclave::ui
