#pragma once

#include "timeline/ReplayController.h"

#include "conclave/engine/Span.h"

#include <QObject>

#include <map>

class QTimer;

namespace conclave::ui {

class RunController;
class TeamScene;

// Paints run states onto the canvas's nodes (NodeItem::setRunState): live,
// following a RunController (queued, running with its elapsed time refreshed
// by a timer, then the node's final status), or a replay's states at its
// playhead. Colours come from StatusPalette. Only ever called on the GUI thread.
class CanvasRunStates : public QObject {
    Q_OBJECT

public:
    static constexpr int kRefreshMs = 100;

    CanvasRunStates(TeamScene* scene, RunController* controller, QObject* parent = nullptr);

    void show(const NodeId& node, Status status, const QString& caption);
    void showStates(const NodeStates& states);
    void clear();
    // The state shown on a node, if any.
    std::optional<Status> shown(const NodeId& node) const;

signals:
    // A node's shown state changed (not emitted for a caption-only refresh).
    void stateShown(const conclave::NodeId& node, conclave::Status status);

private:
    void onNodeChanged(const NodeId& node);
    void refreshRunning();
    QString liveCaption(const NodeId& node) const;

    TeamScene* m_scene;
    RunController* m_controller;
    QTimer* m_timer;
    std::map<NodeId, Status> m_shown;
};

} // namespace conclave::ui
