#pragma once

#include "conclave/store/StoredRun.h"

#include <QObject>
#include <QPointer>
#include <QString>
#include <QStringList>

#include <map>

class QAction;
class QTabWidget;
class QWidget;

namespace conclave::ui {

class EvaluateDialog;
class FidelityDialog;
class TrainRouterDialog;
class ExperimentController;
class ExperimentHistoryPanel;
class ExperimentView;
class RunController;
class RunTabs;
class StudioFeedback;
class TeamDocument;

// Run > Evaluate Designs… (Ctrl+Shift+E) and the experiments of the history
// dock: the evaluation dialog over one ExperimentController, and the
// experiment tabs beside the canvas's "Design" tab. An experiment's tab opens
// when it finishes and on the history's Open; its drill-down opens the trial's
// run (or two trials' compare view) in the run tabs below; the history's
// Resume continues it in the dialog; its context menu's "Simulator fidelity…"
// opens a FidelityDialog of the selected experiments (one per selection); its
// Agents tab's What-if… on a trial is passed on (whatIfRequested). Run > Train
// Router… (and the history's "Train router…") opens the TrainRouterDialog
// with the history's selected experiments checked, writing beside the open
// team (NAME.router.json) unless the user chose another file.
class ExperimentActions : public QObject {
    Q_OBJECT

public:
    // `centre` holds the canvas as its first tab; `window` parents the dialog.
    ExperimentActions(RunController* runs, TeamDocument* document, QTabWidget* centre, RunTabs* tabs,
                      ExperimentHistoryPanel* history, StudioFeedback* feedback, QWidget* window);

    ExperimentController* controller() const { return m_controller; }
    // The dialog, made on first use, offering the open team as it is now.
    EvaluateDialog* dialog();
    void showDialog();
    // Opens (or shows again) an experiment's tab; false and a status message when it cannot be read.
    bool openExperimentTab(const QString& id);
    ExperimentView* experimentTab(const QString& id) const;
    bool resumeExperiment(const QString& id);
    // Shows the fidelity dialog of `ids` (again, when one is open), ready to check.
    FidelityDialog* openFidelity(const QStringList& ids);
    FidelityDialog* fidelityDialog(const QStringList& ids) const;
    // Shows the Train Router dialog (made on first use) with `ids` checked; none: the history's selection.
    TrainRouterDialog* openTrainRouter(const QStringList& ids = {});
    TrainRouterDialog* trainRouterDialog() const { return m_trainRouter; }
    // Where a router trained now is written by default: beside the open team, NAME.router.json.
    QString defaultRouterFile() const;

signals:
    // An experiment tab's Agents tab asked for the What-if panel on one trial's run.
    void whatIfRequested(const conclave::RunId& run, const QString& context);

private:
    void offerOpenTeam();
    void onFinished(const QString& id, int status, const QString& note);
    void closeTab(int index);

    RunController* m_runs;
    TeamDocument* m_document;
    QTabWidget* m_centre;
    RunTabs* m_tabs;
    ExperimentHistoryPanel* m_history;
    StudioFeedback* m_feedback;
    QWidget* m_window;
    ExperimentController* m_controller;
    EvaluateDialog* m_dialog = nullptr;
    QAction* m_evaluate = nullptr;
    std::map<QStringList, QPointer<FidelityDialog>> m_fidelity; // null once closed
    TrainRouterDialog* m_trainRouter = nullptr;
    QString m_routerFileOffered; // the default last offered: replaced while the user has not changed it
};

} // namespace conclave::ui
