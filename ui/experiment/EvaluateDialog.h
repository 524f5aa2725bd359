#pragma once

#include "conclave/experiment/ExperimentSetup.h"
#include "conclave/model/Team.h"

#include <QDialog>

#include <filesystem>
#include <functional>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTreeWidget;

namespace conclave::ui {

class ExperimentController;
class TaskSetPicker;

// Run > Evaluate Designs…: the designs (the open team as it is on screen,
// unsaved edits included, and any team files), a task set and its subset,
// seeds, concurrency, the clock, a cost limit and a baseline; then the
// running experiment's progress (trials done of all, accuracy so far per
// design, cost, ETA) with Cancel Run, which keeps what finished.
//
// Promises: the request it builds is the one `conclave eval` would take
// (EvalRequest); checking and running are the ExperimentController's (core's
// ExperimentSetup and ExperimentRunner, off the GUI thread); errors show in
// the dialog, one per line, and nothing starts; a paid run asks first, with
// core's upper cost estimate. It is not modal: closing it leaves the
// experiment running, and opening it again shows its progress.
class EvaluateDialog : public QDialog {
    Q_OBJECT

public:
    EvaluateDialog(ExperimentController* controller, std::filesystem::path resourcesDir, QWidget* parent = nullptr);

    // The open team, offered as the first design: `snapshot` gives it as it is on screen when the run starts.
    void setOpenTeam(const QString& name, bool modified, std::function<Team()> snapshot);
    void addDesignFiles(const QStringList& files);
    // Paid runs ask for confirmation unless this is off (tests).
    void setConfirmPaid(bool confirm) { m_confirmPaid = confirm; }

    // What the form asks for; its designs are the checked ones, in list order.
    EvalRequest request() const;
    // "3 designs × 82 tasks × 2 seeds = 492 trials".
    QString trialCountText() const;
    // Checks and starts the form's request; false (errors shown) when it cannot start.
    bool evaluate();
    // Checks and starts `request` as it is (another view's: a design search's comparison), showing its progress.
    bool evaluate(const EvalRequest& request);
    // Resumes a stored experiment that did not finish, showing its progress.
    bool resume(const QString& id);
    void cancelRun();

    QListWidget* designs() const { return m_designs; }
    QComboBox* baseline() const { return m_baseline; }
    TaskSetPicker* tasks() const { return m_tasks; }
    QSpinBox* seeds() const { return m_seeds; }
    QSpinBox* concurrency() const { return m_concurrency; }
    QComboBox* clock() const { return m_clock; }
    QDoubleSpinBox* maxCost() const { return m_maxCost; }
    QLineEdit* name() const { return m_name; }
    QLabel* errors() const { return m_errors; }
    QProgressBar* progressBar() const { return m_progress; }
    QLabel* status() const { return m_status; }
    QTreeWidget* accuracy() const { return m_accuracy; }
    QPushButton* startButton() const { return m_start; }
    QPushButton* cancelButton() const { return m_cancel; }
    QPushButton* resultsButton() const { return m_results; }

signals:
    // The results of this experiment were asked for (Open Results, or it finished).
    void openResults(const QString& id);

private:
    QWidget* buildDesigns();
    QWidget* buildRunOptions();
    QWidget* buildProgress();
    void addFilesWithDialog();
    void removeSelectedDesigns();
    void updateBaselines();
    void updateTrialCount();
    bool start(SetupResult setup);
    void showErrors(const std::vector<std::string>& errors);
    void showProgress();
    void onStarted();
    void onFinished(const QString& id, int status, const QString& note);
    void setRunning(bool running);

    ExperimentController* m_controller;
    std::filesystem::path m_resourcesDir;
    std::function<Team()> m_openTeam;
    bool m_confirmPaid = true;
    QListWidget* m_designs = nullptr;
    QComboBox* m_baseline = nullptr;
    TaskSetPicker* m_tasks = nullptr;
    QSpinBox* m_seeds = nullptr;
    QSpinBox* m_concurrency = nullptr;
    QComboBox* m_clock = nullptr;
    QDoubleSpinBox* m_maxCost = nullptr;
    QLineEdit* m_name = nullptr;
    QLabel* m_trials = nullptr;
    QLabel* m_errors = nullptr;
    QProgressBar* m_progress = nullptr;
    QLabel* m_status = nullptr;
    QTreeWidget* m_accuracy = nullptr;
    QPushButton* m_start = nullptr;
    QPushButton* m_cancel = nullptr;
    QPushButton* m_results = nullptr;
};

} // namespace conclave::ui
