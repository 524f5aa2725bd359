#pragma once

#include "studio/RunTabView.h"

#include "conclave/store/StoredRun.h"

#include <QObject>
#include <QString>

class QSplitter;
class QTabWidget;
class QWidget;

namespace conclave::ui {

class CanvasRunStates;
class LiveRunTab;
class RunController;
class RunOutputPanel;
class RunView;
class StudioFeedback;
class TeamScene;

// The run views below the canvas, one tab each (run, replay, compare,
// latency, what-if), and switching between them: the tab widget appears under the
// canvas with the first tab and hides with the last. The current tab drives
// the rest of the window: the output dock shows its run, a replay's playhead
// states show on the canvas, and the canvas's selected node is selected in
// its timeline. Runs come from the RunController's store; a failure to open
// one is a status message. A studio run's tab opens as the run starts and
// grows live (LiveRunTab) until it ends and becomes the stored run's view.
class RunTabs : public QObject {
    Q_OBJECT

public:
    // The canvas's share of the split while run tabs are open: never below a
    // third (the team stays readable), never above four fifths (the timeline
    // keeps its lanes); a dragged handle sets it, and the window remembers it.
    static constexpr double kMinCanvasShare = 1.0 / 3.0;
    static constexpr double kMaxCanvasShare = 0.8;
    static constexpr double kDefaultCanvasShare = 0.45;

    // The tab widget goes below the canvas in `split`.
    RunTabs(RunController* runs, TeamScene* scene, CanvasRunStates* states, RunOutputPanel* output,
            StudioFeedback* feedback, QSplitter* split, QObject* parent);

    QTabWidget* tabs() const { return m_tabs; }
    int count() const;
    // What the current tab shows.
    RunTabView current() const;

    // Each opens a tab and makes it current; false (and a status message) on failure.
    bool openRunTab(const RunId& id);
    // The tab of the controller's run, just started, drawn live as it goes.
    // False, and no tab, for a run on the simulated clock: it ends at once,
    // and its tab opens finished (finishRunTab).
    bool openLiveTab(const RunId& id);
    // The controller's run has ended and is stored: its live tab, current or
    // not, becomes the stored run's view in place (a live tab the user closed
    // stays closed); a run without one opens its tab now. Then, unless the
    // canvas has one node selected, the output dock shows the run's answer:
    // its output node. False when the stored run cannot be read (a status message).
    bool finishRunTab(const RunId& id);
    // What keeps the live tab growing while one is open; null otherwise.
    LiveRunTab* liveTab() const { return m_live; }
    bool openReplayTab(const RunId& id);
    bool openCompareTab(const RunId& a, const RunId& b);
    bool openLatencyTab(const QString& team, int lastRuns = 20);
    // Adds `view` as a tab and makes it current (WhatIfActions opens its panels so).
    void addTab(QWidget* view, const QString& title, const QString& tip);
    double canvasShare() const { return m_canvasShare; }
    // Clamped to [kMinCanvasShare, kMaxCanvasShare]; applied at once when tabs are open.
    void setCanvasShare(double share);
    // The current tab's view as PNG or SVG (by suffix).
    bool exportChartTo(const QString& path, QString* error = nullptr);
    // Shows the canvas's one selected node (if one is) in the output dock and
    // in the current tab's timeline; done on every change of the selection.
    void showSelectedNode();

signals:
    // A bar of some tab's timeline was clicked.
    void spanClicked(const conclave::NodeId& node);
    void tabOpened();
    void currentTabChanged();

private:
    void closeTab(int index);
    void onCurrentChanged();
    void applyCanvasShare();
    bool finishLiveView(RunView* view, const RunId& id);

    RunController* m_runs;
    TeamScene* m_scene;
    CanvasRunStates* m_states;
    RunOutputPanel* m_output;
    StudioFeedback* m_feedback;
    QSplitter* m_split;
    QTabWidget* m_tabs;
    double m_canvasShare = kDefaultCanvasShare;
    LiveRunTab* m_live = nullptr; // the live tab's, kept after the user closed the tab until the run ends
};

} // namespace conclave::ui
