#include "run/CanvasRunStates.h"

#include "run/RunController.h"

#include "editor/NodeItem.h"
#include "editor/TeamScene.h"
#include "timeline/StatusPalette.h"
#include "timeline/TimeFormat.h"

#include <QTimer>

namespace conclave::ui {

CanvasRunStates::CanvasRunStates(TeamScene* scene, RunController* controller, QObject* parent)
    : QObject(parent), m_scene(scene), m_controller(controller), m_timer(new QTimer(this))
{
    m_timer->setInterval(kRefreshMs);
    connect(m_timer, &QTimer::timeout, this, &CanvasRunStates::refreshRunning);
    connect(m_controller, &RunController::started, this, [this] {
        clear();
        m_timer->start();
    });
    connect(m_controller, &RunController::nodeChanged, this, &CanvasRunStates::onNodeChanged);
    connect(m_controller, &RunController::finished, this, [this] {
        m_timer->stop();
        refreshRunning();
    });
}

void CanvasRunStates::show(const NodeId& node, Status status, const QString& caption)
{
    if (auto* item = m_scene->nodeItem(node))
        item->setRunState(StatusPalette::color(status), caption);
    const auto it = m_shown.find(node);
    if (it != m_shown.end() && it->second == status)
        return;
    m_shown[node] = status;
    emit stateShown(node, status);
}

void CanvasRunStates::showStates(const NodeStates& states)
{
    for (const auto& [node, status] : states)
        show(node, status, StatusPalette::label(status));
}

void CanvasRunStates::clear()
{
    for (const auto& [node, status] : m_shown) {
        if (auto* item = m_scene->nodeItem(node))
            item->setRunState(std::nullopt);
    }
    m_shown.clear();
}

std::optional<Status> CanvasRunStates::shown(const NodeId& node) const
{
    const auto it = m_shown.find(node);
    return it == m_shown.end() ? std::nullopt : std::optional<Status>(it->second);
}

QString CanvasRunStates::liveCaption(const NodeId& node) const
{
    const auto* n = m_controller->liveNode(node);
    if (!n)
        return {};
    const QString label = StatusPalette::label(n->status);
    if (n->status == Status::Running)
        return label + QStringLiteral(" ") + TimeFormat::duration(m_controller->runningMs(node) * 1000);
    if (n->result && n->startedUs >= 0 && n->finishedUs >= n->startedUs)
        return label + QStringLiteral(" · ") + TimeFormat::duration(n->finishedUs - n->startedUs);
    return label;
}

void CanvasRunStates::onNodeChanged(const NodeId& node)
{
    if (const auto* n = m_controller->liveNode(node))
        show(node, n->status, liveCaption(node));
}

void CanvasRunStates::refreshRunning()
{
    for (const auto& [node, status] : m_shown) {
        if (status != Status::Running)
            continue;
        if (auto* item = m_scene->nodeItem(node))
            item->setRunState(StatusPalette::color(status), liveCaption(node));
    }
}

} // namespace conclave::ui
