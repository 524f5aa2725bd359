#pragma once

#include <QDialog>
#include <QElapsedTimer>
#include <QSet>
#include <QStringList>

#include <cstdint>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableView;
class QTreeWidget;
class QWidget;

namespace conclave::ui {

class RouterHeldOutModel;
class RunController;
class TrainRouterController;

// Run > Train Router…: `conclave train-router` in the studio. The stored
// experiments to learn from (checkable), the candidate models that answered
// in the checked ones (read off the GUI thread when the checks change; all
// checked unless the user unchecks one), the method, the held-out share
// (0.3), the split's seed and the router file to write; Train runs core's
// RouterTraining on the TrainRouterController's thread with a busy bar and
// Cancel, then shows each model's figures (RouterHeldOutModel) and the lines
// the command prints (RouterTrainingText), its domain note and warnings.
//
// Promises: nothing it does blocks on the store or the training; every
// refusal and failure is a line in status(), never a dialog box or a crash;
// the file is written whole or not at all. Closing it cancels a training under
// way (no file is written) and hides it at once.
class TrainRouterDialog : public QDialog {
    Q_OBJECT

public:
    explicit TrainRouterDialog(RunController* runs, QWidget* parent = nullptr);

    // Reloads the stored experiments, keeping the checks; false (and why in status()) on a store error.
    bool refreshExperiments();
    // Checks exactly these experiments (ids; others unchecked) and reads their models.
    void setCheckedExperiments(const QStringList& ids);
    QStringList checkedExperiments() const; // in list order
    QStringList checkedModels() const;      // in list order
    void setOutput(const QString& path);
    QString output() const;
    // Starts training with the form; false (and why in status()) when it cannot start.
    bool train();
    void done(int result) override;

    TrainRouterController* controller() const { return m_controller; }
    QTreeWidget* experiments() const { return m_experiments; }
    QListWidget* models() const { return m_models; }
    QLabel* modelsNote() const { return m_modelsNote; }
    QComboBox* methodBox() const { return m_method; }
    QComboBox* weightsBox() const { return m_weights; }
    QDoubleSpinBox* holdoutBox() const { return m_holdout; }
    QSpinBox* seedBox() const { return m_seed; }
    QPushButton* trainButton() const { return m_train; }
    QPushButton* cancelButton() const { return m_cancel; }
    QLabel* status() const { return m_status; }
    QTableView* table() const { return m_table; }
    RouterHeldOutModel* figures() const { return m_figures; }
    // The lines `conclave train-router` prints below its table, and its warnings.
    QLabel* summary() const { return m_summary; }
    QLabel* warnings() const { return m_warnings; }

signals:
    // After each training, with its figures shown when `ok`.
    void trainedRouter(bool ok);
    // After each read of the checked experiments' models, or when none could start (none checked, no store).
    void modelsShown(bool ok);

private:
    QWidget* buildForm();
    void readModels();
    void onModelsRead(bool ok);
    void onTrained(bool ok);
    void chooseOutput();
    void fitTable();
    void updateControls();

    RunController* m_runs;
    TrainRouterController* m_controller;
    QTreeWidget* m_experiments;
    QListWidget* m_models;
    QLabel* m_modelsNote; // in the models' place while there are none: why
    QComboBox* m_method;
    QComboBox* m_weights; // logistic only: RouterTrainer::Weights
    QDoubleSpinBox* m_holdout;
    QSpinBox* m_seed;
    QLineEdit* m_output;
    QPushButton* m_train;
    QPushButton* m_cancel;
    QProgressBar* m_busy;
    QLabel* m_status;
    QWidget* m_results;
    QTableView* m_table;
    RouterHeldOutModel* m_figures;
    QLabel* m_summary;
    QLabel* m_warnings;
    QSet<QString> m_uncheckedModels; // by the user: stay unchecked when the list is read again
    bool m_modelsStale = false;      // the checks changed while a job ran: read once it ends
    QElapsedTimer m_clock;
};

} // namespace conclave::ui
