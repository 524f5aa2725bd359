#pragma once

#include "conclave/model/NodeKind.h"
#include "conclave/model/StrongId.h"
#include "conclave/store/StoredRun.h"

#include <QMainWindow>

#include <vector>

class QAction;
class QLabel;
class QSplitter;
class QTabWidget;

namespace conclave::ui {

class CanvasRunStates;
class CanvasView;
class Inspector;
class Palette;
class ProblemsPanel;
class RecentFiles;
class RunController;
class RunHistoryPanel;
class RunOutputPanel;
class RunToolBar;
class TeamDocument;
class TeamScene;
class ThemeManager;

// The studio's main window: palette left, canvas centre with the run views
// (run, replay, compare, latency tabs) below it, inspector and run output
// right, problems and run history below. It wires widgets to the document and
// to the RunController, and turns menu actions into document requests; it
// holds no team or run data of its own.
class MainWindow : public QMainWindow {
    Q_OBJECT

public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // Opens a team file; on failure shows the loader's messages (a dialog when
    // interactive) and keeps the current document untouched.
    bool openFile(const QString& path, bool interactive = true);
    bool saveTo(const QString& path);
    void newDocument();
    // Fits the canvas to the team (after the window has its final size).
    void fitToTeam();

    TeamDocument* document() const { return m_document; }
    TeamScene* scene() const { return m_scene; }
    CanvasView* canvas() const { return m_view; }
    Inspector* inspector() const { return m_inspector; }
    ProblemsPanel* problemsPanel() const { return m_problems; }
    ThemeManager* themes() const { return m_themes; }
    const QString& lastError() const { return m_lastError; }
    QAction* action(const QString& name) const;

    // Running (MainWindowRun.cpp).
    RunController* runController() const { return m_runs; }
    RunHistoryPanel* historyPanel() const { return m_history; }
    RunOutputPanel* runOutput() const { return m_output; }
    RunToolBar* runToolBar() const { return m_runBar; }
    CanvasRunStates* canvasRunStates() const { return m_runStates; }
    QTabWidget* runTabs() const { return m_runTabs; }
    // Uses this run store instead of the default ($CONCLAVE_DB, else the user's data folder).
    bool setRunStore(const QString& file);
    // Runs the document's team on the toolbar's input and seed.
    bool startRun();
    void stopRun();
    void refreshHistory();
    // Each opens a tab below the canvas and makes it current; false (and a status message) on failure.
    bool openRunTab(const RunId& id);
    bool openReplayTab(const RunId& id);
    bool openCompareTab(const RunId& a, const RunId& b);
    bool openLatencyTab(const QString& team, int lastRuns = 20);
    bool rerunStored(const RunId& id);
    bool deleteRuns(const std::vector<RunId>& ids);
    // The current run tab's view as PNG or SVG (by suffix).
    bool exportChartTo(const QString& path, QString* error = nullptr);

    // Adds a node of `kind` at the centre of the view (or at `scenePos`) and selects it.
    void addNode(NodeKind kind, const QPointF* scenePos = nullptr);
    void insertTemplate(const QString& path, const QPointF* scenePos = nullptr);
    void copySelection();
    void paste();
    void duplicateSelection();
    void deleteSelection();
    void focusNode(const NodeId& id);

protected:
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void buildDocks();
    void buildActions();
    void buildMenus();
    void buildStatusBar();
    void buildRunUi();
    void buildRunMenu();
    void onRunFinished(const RunId& id, RunStatus status);
    void addRunTab(QWidget* view, const QString& title, const QString& tip);
    void onRunTabChanged();
    void exportChart();
    void exportRunWithDialog(const RunId& id);
    void restoreSettings();
    void saveSettings() const;
    void updateTitle();
    void updateCounts();
    void onSelectionChanged();
    void onPaletteEntry(const QString& entry, const QPointF* scenePos);
    void editRouteLabel(size_t edge);
    void editTeamSettings();
    bool maybeSave();
    bool save();
    bool saveAs();
    void exportJson();
    void openWithDialog();
    QAction* makeAction(const QString& name, const QString& text, const QKeySequence& shortcut,
                        void (MainWindow::*slot)());

    TeamDocument* m_document;
    TeamScene* m_scene;
    CanvasView* m_view;
    QTabWidget* m_centre;
    QSplitter* m_split = nullptr;
    QTabWidget* m_runTabs = nullptr;
    RunController* m_runs = nullptr;
    CanvasRunStates* m_runStates = nullptr;
    RunOutputPanel* m_output = nullptr;
    RunHistoryPanel* m_history = nullptr;
    RunToolBar* m_runBar = nullptr;
    Palette* m_palette;
    Inspector* m_inspector;
    ProblemsPanel* m_problems;
    ThemeManager* m_themes;
    RecentFiles* m_recent;
    QLabel* m_countsLabel;
    QLabel* m_problemsLabel;
    QLabel* m_zoomLabel;
    QString m_lastError;
    bool m_interactive = true;
};

} // namespace conclave::ui
