// TeamScene: drawing a new edge from a port, with live feedback.
#include "editor/TeamScene.h"

#include "editor/NodeItem.h"

#include "document/TeamDocument.h"

#include <QGraphicsPathItem>
#include <QPalette>
#include <QPen>

namespace conclave::ui {

std::optional<QString> TeamScene::portRefusal(const PortItem* source, const PortItem* target) const
{
    if (!source || !target)
        return tr("drop the connection on a port");
    if (source->nodeId() == target->nodeId())
        return tr("a node cannot be connected to itself");
    if (source->isSource() == target->isSource()) {
        return source->isSource() ? tr("both ends are output ports; connect an output port to an input port")
                                  : tr("both ends are input ports; connect an output port to an input port");
    }
    const PortItem* from = source->isSource() ? source : target;
    const PortItem* to = source->isSource() ? target : source;
    const EdgeRole role = from->role() == PortItem::Role::Members ? EdgeRole::Member : EdgeRole::Flow;
    if (auto reason = m_document->connectionRefusal(from->nodeId(), to->nodeId(), role))
        return QString::fromStdString(*reason);
    return std::nullopt;
}

bool TeamScene::connectPorts(const PortItem* source, const PortItem* target, QString* reason)
{
    if (auto refusal = portRefusal(source, target)) {
        if (reason)
            *reason = *refusal;
        return false;
    }
    const PortItem* from = source->isSource() ? source : target;
    const PortItem* to = source->isSource() ? target : source;
    const EdgeRole role = from->role() == PortItem::Role::Members ? EdgeRole::Member : EdgeRole::Flow;
    return m_document->requestConnect(from->nodeId(), to->nodeId(), role, reason);
}

void TeamScene::beginConnection(PortItem* source)
{
    clearConnectionFeedback();
    m_source = source;
    m_rubberLine = new QGraphicsPathItem;
    QPen pen(palette().color(QPalette::Highlight), 2, Qt::DashLine);
    m_rubberLine->setPen(pen);
    m_rubberLine->setZValue(5);
    addItem(m_rubberLine);
    // Light up every port that would take the connection, dim the rest.
    for (auto& [id, node] : m_nodes) {
        for (const auto role : {PortItem::Role::In, PortItem::Role::Out, PortItem::Role::Members}) {
            PortItem* port = node->port(role);
            if (!port || port == source)
                continue;
            port->setHighlight(portRefusal(source, port) ? PortItem::Highlight::Invalid : PortItem::Highlight::Valid);
            m_highlighted.push_back(port);
        }
    }
    emit statusMessage(tr("Drag to a highlighted port to connect; Esc or release elsewhere cancels"));
}

PortItem* TeamScene::portAt(const QPointF& scenePos, const PortItem* source) const
{
    for (auto* item : items(scenePos)) {
        if (item == m_rubberLine)
            continue;
        if (item->type() == PortItem::Type)
            return static_cast<PortItem*>(item);
        if (item->type() == NodeItem::Type) {
            // Dropping on a node's body means its matching port.
            auto* node = static_cast<NodeItem*>(item);
            return node->port(source->isSource() ? PortItem::Role::In : PortItem::Role::Out);
        }
    }
    return nullptr;
}

std::optional<QString> TeamScene::portlessRefusal(const QPointF& scenePos, const PortItem* source) const
{
    // Over a node that has no port of the needed side (the input, the output): say why.
    for (auto* item : items(scenePos)) {
        if (item->type() != NodeItem::Type)
            continue;
        auto* node = static_cast<NodeItem*>(item);
        if (node->port(source->isSource() ? PortItem::Role::In : PortItem::Role::Out))
            return std::nullopt;
        if (node->nodeId() == source->nodeId())
            return std::nullopt;
        const NodeId from = source->isSource() ? source->nodeId() : node->nodeId();
        const NodeId to = source->isSource() ? node->nodeId() : source->nodeId();
        const EdgeRole role = source->role() == PortItem::Role::Members ? EdgeRole::Member : EdgeRole::Flow;
        if (auto reason = m_document->connectionRefusal(from, to, role))
            return QString::fromStdString(*reason);
        return std::nullopt;
    }
    return std::nullopt;
}

void TeamScene::updateConnection(const QPointF& scenePos)
{
    if (!m_source || !m_rubberLine)
        return;
    const QPointF a = m_source->scenePos();
    QPainterPath path(a);
    const double dx = std::max(40.0, std::abs(scenePos.x() - a.x()) * 0.5);
    const double sign = m_source->isSource() ? 1 : -1;
    path.cubicTo(a + QPointF(sign * dx, 0), scenePos - QPointF(sign * dx, 0), scenePos);
    m_rubberLine->setPath(path);
    if (auto reason = portlessRefusal(scenePos, m_source)) {
        emit statusMessage(tr("Cannot connect: %1").arg(*reason));
        return;
    }
    const PortItem* target = portAt(scenePos, m_source);
    if (!target || target == m_source)
        return;
    if (auto reason = portRefusal(m_source, target))
        emit statusMessage(tr("Cannot connect: %1").arg(*reason));
    else
        emit statusMessage(tr("Release to connect"));
}

void TeamScene::endConnection(const QPointF& scenePos)
{
    if (!m_source)
        return;
    PortItem* source = m_source;
    const PortItem* target = portAt(scenePos, source);
    const std::optional<QString> portless = portlessRefusal(scenePos, source);
    clearConnectionFeedback();
    if (portless) {
        emit statusMessage(tr("Cannot connect: %1").arg(*portless));
        return;
    }
    if (!target || target == source) {
        emit statusMessage({});
        return;
    }
    QString reason;
    if (connectPorts(source, target, &reason))
        emit statusMessage(tr("Connected"));
    else
        emit statusMessage(tr("Cannot connect: %1").arg(reason));
}

void TeamScene::cancelConnection()
{
    if (!m_source)
        return;
    if (auto* grabber = mouseGrabberItem())
        grabber->ungrabMouse();
    clearConnectionFeedback();
    emit statusMessage(tr("Connection cancelled"));
}

void TeamScene::clearConnectionFeedback()
{
    for (auto* port : m_highlighted)
        port->setHighlight(PortItem::Highlight::None);
    m_highlighted.clear();
    delete m_rubberLine;
    m_rubberLine = nullptr;
    m_source = nullptr;
}

} // namespace conclave::ui
