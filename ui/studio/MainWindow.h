#pragma once

#include "studio/EditActions.h"
#include "studio/ExperimentActions.h"
#include "studio/FileActions.h"
#include "studio/RunActions.h"
#include "studio/RunTabs.h"
#include "studio/SearchActions.h"
#include "studio/ServeActions.h"
#include "studio/StudioFeedback.h"
#include "studio/ViewActions.h"
#include "studio/WhatIfActions.h"

#include "conclave/model/NodeKind.h"
#include "conclave/model/StrongId.h"
#include "conclave/store/StoredRun.h"

#include <QMainWindow>

#include <vector>

class QAction;
class QDockWidget;
class QLabel;
class QSplitter;
class QTabWidget;

namespace conclave::ui {

class CanvasRunStates;
class CanvasView;
class ExperimentHistoryPanel;
class Inspector;
class Palette;
class ProblemsPanel;
class RunController;
class RunHistoryPanel;
class RunOutputPanel;
class RunToolBar;
class TeamDocument;
class TeamScene;
class ThemeManager;

// The studio's main window, a shell: palette left, canvas centre with the run
// views (run, replay, compare, latency tabs) below it, inspector and run
// output right, problems and the history (runs and experiments) below, experiment tabs beside the canvas, and the
// menus, toolbars and status bar. It makes the widgets and lays them out; the work is the controllers': FileActions
// (files), EditActions (edits), ViewActions (the canvas's view and themes), RunActions (running and the history),
// WhatIfActions (a run's what-ifs), ServeActions (serving the team) and RunTabs (the run views and which one is
// current). They answer through one StudioFeedback, which this window shows on its status bar. It holds no team or run
// data of its own; its public calls forward to the controllers.
class MainWindow : public QMainWindow {
    Q_OBJECT

public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // Opens a team file; on failure shows the loader's messages (a dialog when
    // interactive) and keeps the current document untouched.
    bool openFile(const QString& path, bool interactive = true) { return m_files->openFile(path, interactive); }
    bool saveTo(const QString& path) { return m_files->saveTo(path); }
    void newDocument() { m_files->newDocument(); }
    // Fits the canvas to the team (after the window has its final size).
    void fitToTeam() { m_views->fitToTeam(); }

    TeamDocument* document() const { return m_document; }
    TeamScene* scene() const { return m_scene; }
    CanvasView* canvas() const { return m_view; }
    Inspector* inspector() const { return m_inspector; }
    ProblemsPanel* problemsPanel() const { return m_problems; }
    ThemeManager* themes() const { return m_themes; }
    const QString& lastError() const { return m_feedback->lastError(); }
    // An action of any controller, by its object name ("actionRun").
    QAction* action(const QString& name) const;

    // Running.
    RunController* runController() const { return m_runs; }
    RunHistoryPanel* historyPanel() const { return m_history; }
    RunOutputPanel* runOutput() const { return m_output; }
    RunToolBar* runToolBar() const { return m_runBar; }
    CanvasRunStates* canvasRunStates() const { return m_runStates; }
    QTabWidget* runTabs() const { return m_runTabs->tabs(); }
    RunTabView currentRunTab() const { return m_runTabs->current(); }
    // The canvas's share of the centre while run tabs are open (remembered across sessions).
    double canvasShare() const { return m_runTabs->canvasShare(); }
    // Uses this run store instead of the default ($CONCLAVE_DB, else the user's data folder).
    bool setRunStore(const QString& file);
    // Runs the document's team on the toolbar's input and seed.
    bool startRun() { return m_runActions->startRun(); }
    void stopRun() { m_runActions->stopRun(); }
    void refreshHistory();
    // Each opens a tab below the canvas and makes it current; false (and a status message) on failure.
    bool openRunTab(const RunId& id) { return m_runTabs->openRunTab(id); }
    bool openReplayTab(const RunId& id) { return m_runTabs->openReplayTab(id); }
    bool openCompareTab(const RunId& a, const RunId& b) { return m_runTabs->openCompareTab(a, b); }
    bool openLatencyTab(const QString& team, int lastRuns = 20) { return m_runTabs->openLatencyTab(team, lastRuns); }
    // Run > What-if…: a What-if tab on a stored run, Apply writing into the open team.
    WhatIfActions* whatIf() const { return m_whatIf; }
    bool openWhatIfTab(const RunId& id) { return m_whatIf->openWhatIfTab(id); }
    bool rerunStored(const RunId& id) { return m_runActions->rerunStored(id); }
    bool deleteRuns(const std::vector<RunId>& ids) { return m_runActions->deleteRuns(ids); }
    // Experiments: Run > Evaluate Designs…, the history's experiments, the experiment tabs beside the canvas.
    ExperimentActions* experiments() const { return m_experiments; }
    ExperimentHistoryPanel* experimentHistory() const { return m_experimentHistory; }
    QTabWidget* centreTabs() const { return m_centre; }
    bool openExperimentTab(const QString& id) { return m_experiments->openExperimentTab(id); }
    // Run > Search Designs…: a design search of the open team; its designs as tabs beside the canvas.
    SearchActions* searches() const { return m_search; }
    // Run > Serve This Team…: the open team as an OpenAI-compatible endpoint.
    ServeActions* serving() const { return m_serve; }
    // The current run tab's view as PNG or SVG (by suffix).
    bool exportChartTo(const QString& path, QString* error = nullptr) { return m_runTabs->exportChartTo(path, error); }

    // Adds a node of `kind` at the centre of the view (or at `scenePos`) and selects it.
    void addNode(NodeKind kind, const QPointF* scenePos = nullptr) { m_edits->addNode(kind, scenePos); }
    void insertTemplate(const QString& path, const QPointF* scenePos = nullptr)
    {
        m_edits->insertTemplate(path, scenePos);
    }
    void copySelection() { m_edits->copySelection(); }
    void paste() { m_edits->paste(); }
    void duplicateSelection() { m_edits->duplicateSelection(); }
    void deleteSelection() { m_edits->deleteSelection(); }
    void focusNode(const NodeId& id) { m_views->focusNode(id); }

protected:
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    QDockWidget* addDock(const QString& title, const QString& name, QWidget* widget, Qt::DockWidgetArea area);
    void buildDocks();
    void buildRunUi();
    void buildMenus();
    void buildStatusBar();
    void connectWidgets();
    void restoreSettings();
    void saveSettings() const;
    void updateTitle();
    void updateCounts();
    void onSelectionChanged();

    TeamDocument* m_document;
    TeamScene* m_scene;
    CanvasView* m_view;
    QTabWidget* m_centre;
    QSplitter* m_split = nullptr;
    Palette* m_palette;
    Inspector* m_inspector;
    ProblemsPanel* m_problems;
    ThemeManager* m_themes;
    StudioFeedback* m_feedback;
    QLabel* m_countsLabel;
    QLabel* m_problemsLabel;
    QLabel* m_zoomLabel;
    FileActions* m_files = nullptr;
    EditActions* m_edits = nullptr;
    ViewActions* m_views = nullptr;
    RunController* m_runs = nullptr;
    CanvasRunStates* m_runStates = nullptr;
    RunOutputPanel* m_output = nullptr;
    RunHistoryPanel* m_history = nullptr;
    RunToolBar* m_runBar = nullptr;
    RunTabs* m_runTabs = nullptr;
    RunActions* m_runActions = nullptr;
    ExperimentHistoryPanel* m_experimentHistory = nullptr;
    ExperimentActions* m_experiments = nullptr;
    WhatIfActions* m_whatIf = nullptr;
    ServeActions* m_serve = nullptr;
    SearchActions* m_search = nullptr;
    bool m_closeWhenServed = false; // the user closed the window while serving: it closes once the drain ends
};

} // namespace conclave::ui
