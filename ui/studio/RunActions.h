#pragma once

#include "conclave/store/StoredRun.h"

#include <QObject>
#include <QString>

#include <vector>

class QAction;
class QWidget;

namespace conclave::ui {

class RunController;
class RunHistoryPanel;
class RunTabs;
class RunToolBar;
class StudioFeedback;
class TeamDocument;

// The Run menu's actions: Run, Stop, Replay Run and Export Chart…, and what
// the run history dock asks for (open, replay, re-run, compare, latency,
// export, delete). A run takes the document's team, the toolbar's input and
// seed; its start and end are status messages, its start opens its run tab
// (live, RunTabs::openLiveTab), and its end finishes the tab and selects the
// run in the history.
class RunActions : public QObject {
    Q_OBJECT

public:
    // `window` parents the dialogs.
    RunActions(RunController* runs, TeamDocument* document, RunToolBar* bar, RunHistoryPanel* history, RunTabs* tabs,
               StudioFeedback* feedback, QWidget* window);

    // Uses this run store instead of the default ($CONCLAVE_DB, else the user's data folder).
    bool setRunStore(const QString& file);
    // Runs the document's team on the toolbar's input and seed.
    bool startRun();
    void stopRun();
    void refreshHistory();
    bool rerunStored(const RunId& id);
    bool deleteRuns(const std::vector<RunId>& ids);

private:
    void buildActions();
    void connectHistory();
    void onStarted(const RunId& id);
    void onFinished(const RunId& id, RunStatus status);
    void replayCurrent();
    void confirmDelete(const std::vector<RunId>& ids);
    void exportRunWithDialog(const RunId& id);
    void exportChart();

    RunController* m_runs;
    TeamDocument* m_document;
    RunToolBar* m_bar;
    RunHistoryPanel* m_history;
    RunTabs* m_tabs;
    StudioFeedback* m_feedback;
    QWidget* m_window;
    QAction* m_run = nullptr;
    QAction* m_stop = nullptr;
    QAction* m_replay = nullptr;
    QAction* m_exportChart = nullptr;
};

} // namespace conclave::ui
