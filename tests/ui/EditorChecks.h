#pragma once

// Consistency of the editor's scene with its document, checked by the ui tests
// after every edit, undo and redo: one item per node at the node's place, one
// item per edge drawn between the right ports, nothing else.
#include "document/TeamDocument.h"
#include "editor/EdgeItem.h"
#include "editor/NodeItem.h"
#include "editor/TeamScene.h"

#include <QString>

#include <cmath>
#include <set>

inline bool near(const QPointF& a, const QPointF& b)
{
    return std::hypot(a.x() - b.x(), a.y() - b.y()) < 0.5;
}

// Empty when consistent; otherwise what is wrong.
inline QString sceneInconsistency(const conclave::ui::TeamDocument& document, const conclave::ui::TeamScene& scene)
{
    using namespace conclave::ui;
    const auto& team = document.team();
    // A duplicate id (a broken file, reported by the validator) is drawn once.
    std::set<conclave::NodeId> ids;
    for (const auto& n : team.nodes)
        ids.insert(n.id);
    if (scene.nodeItemCount() != ids.size())
        return QStringLiteral("%1 node items for %2 nodes").arg(scene.nodeItemCount()).arg(ids.size());
    int nodeItems = 0;
    int edgeItems = 0;
    for (auto* item : scene.items()) {
        nodeItems += item->type() == NodeItem::Type;
        edgeItems += item->type() == EdgeItem::Type;
    }
    if (size_t(nodeItems) != ids.size() || size_t(edgeItems) != team.edges.size())
        return QStringLiteral("scene holds %1 node and %2 edge items").arg(nodeItems).arg(edgeItems);
    for (const auto& n : team.nodes) {
        const NodeItem* item = scene.nodeItem(n.id);
        if (!item || !(item->nodeId() == n.id))
            return QStringLiteral("no item for node %1").arg(QString::fromStdString(n.id.str()));
        if (!near(item->pos(), scene.placeOf(n.id)))
            return QStringLiteral("node %1 drawn at the wrong place").arg(QString::fromStdString(n.id.str()));
        if (n.pos && !near(item->pos(), QPointF(n.pos->x, n.pos->y)))
            return QStringLiteral("node %1 not at its position").arg(QString::fromStdString(n.id.str()));
    }
    if (scene.edgeItems().size() != team.edges.size())
        return QStringLiteral("%1 edge items for %2 edges").arg(scene.edgeItems().size()).arg(team.edges.size());
    for (size_t i = 0; i < team.edges.size(); ++i) {
        const auto& e = team.edges[i];
        const EdgeItem* item = scene.edgeItems()[i];
        if (item->index() != i)
            return QStringLiteral("edge item %1 has index %2").arg(i).arg(item->index());
        const auto* from = scene.nodeItem(e.from);
        const auto* to = scene.nodeItem(e.to);
        if (!from || !to)
            continue; // a dangling edge is the validator's business; it is not drawn
        const auto start = from->portScenePos(e.isMember() ? PortItem::Role::Members : PortItem::Role::Out);
        const auto end = to->portScenePos(PortItem::Role::In);
        const auto& path = item->path();
        if (path.isEmpty() || !near(path.pointAtPercent(0), start) || !near(path.pointAtPercent(1), end))
            return QStringLiteral("edge %1 is not drawn between its ports").arg(i);
    }
    return {};
}
