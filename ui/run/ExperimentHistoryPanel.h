#pragma once

#include "conclave/store/ExperimentRecords.h"

#include <QStringList>
#include <QWidget>

#include <vector>

class QLabel;
class QMenu;
class QPushButton;
class QTreeWidget;

namespace conclave::ui {

class RunController;

// The experiments of the run store, in the "Run history" dock: one row per
// experiment, newest first (name, designs, task set, trials stored of
// planned, status, start); buttons to open, resume, export and delete one,
// and the same in each row's context menu with "Simulator fidelity…" and
// "Train router…".
//
// Promises: it reads the store only through its RunController and keeps
// nothing but the records of the last refresh(); a refresh keeps the
// selection by id. Opening and resuming it asks for through its signals (the
// window does the work); exporting and deleting it does itself, and every
// failure of them or of a refresh is a false return, lastError() and
// errorOccurred(); success is a statusMessage(). It never deletes (nor
// offers to resume) the experiment setRunningExperiment() names.
class ExperimentHistoryPanel : public QWidget {
    Q_OBJECT

public:
    explicit ExperimentHistoryPanel(RunController* controller, QWidget* parent = nullptr);

    // Reloads the experiments, keeping the selection. False on a store error.
    bool refresh();
    const std::vector<ExperimentRecord>& experiments() const { return m_experiments; }
    const ExperimentRecord* record(const QString& id) const;
    QStringList selectedIds() const; // in list order
    void selectIds(const QStringList& ids);
    QTreeWidget* list() const { return m_list; }
    const QString& lastError() const { return m_error; }

    // The experiment the studio is running now (empty: none): never deleted nor resumed.
    void setRunningExperiment(const QString& id);
    const QString& runningExperiment() const { return m_running; }
    // Whether the Delete button asks first (tests turn it off).
    void setConfirmDeletes(bool confirm) { m_confirmDeletes = confirm; }

    // Writes report.text(format) of experiment `id` to `path`, the format by
    // its suffix (.json, .csv or .md).
    bool exportExperiment(const QString& id, const QString& path, QString* error = nullptr);
    // Deletes the experiments with their trials and runs, then refreshes and
    // emits experimentsDeleted(). Refuses all of them, deleting none, when one
    // is the running experiment; a store error stops at the experiment it
    // refused (those before it stay deleted and are in experimentsDeleted()).
    bool deleteExperiments(const QStringList& ids, QString* error = nullptr);
    // What the Delete button asks before deleting `ids`.
    QString deleteQuestion(const QStringList& ids) const;
    // The context menu of the selection (the caller owns it): the buttons'
    // actions, enabled as they are, and "Simulator fidelity…" and "Train
    // router…" of the selected experiments (not while one of them is running).
    QMenu* contextMenu();

signals:
    void errorOccurred(const QString& message);
    void statusMessage(const QString& message);
    void openRequested(const QString& id);
    void resumeRequested(const QString& id);
    void fidelityRequested(const QStringList& ids);
    void trainRouterRequested(const QStringList& ids);
    void experimentsDeleted(const QStringList& ids);

private:
    bool fail(const QString& message, QString* error);
    void fill();
    void updateButtons();
    void exportSelected();
    void deleteSelected();

    RunController* m_controller;
    std::vector<ExperimentRecord> m_experiments;
    QString m_error;
    QString m_running;
    bool m_confirmDeletes = true;
    QLabel* m_count;
    QTreeWidget* m_list;
    QPushButton* m_open;
    QPushButton* m_resume;
    QPushButton* m_export;
    QPushButton* m_delete;
};

} // namespace conclave::ui
