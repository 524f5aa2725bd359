#pragma once

#include <QDialog>
#include <QElapsedTimer>
#include <QStringList>

class QDoubleSpinBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QSpinBox;

namespace conclave::ui {

class FidelityController;
class FidelityView;
class RunController;

// "Simulator fidelity…" of stored experiments: the held-out share (0.5) and
// the split's seed (0) with Check, the check's stage and Cancel while it runs
// (FidelityController, off the GUI thread), then its report (FidelityView),
// or its error. Closing it while a check runs cancels the check and hides it
// at once. With setDeleteWhenClosed (the studio's), a closed dialog goes
// (deleteLater), and when a check was running only once that check's stage
// under way has ended: closing never waits, nor frees what the check's
// thread uses. Destroying it mid-check waits for that stage
// (FidelityController).
class FidelityDialog : public QDialog {
    Q_OBJECT

public:
    FidelityDialog(RunController* runs, QStringList experiments, QWidget* parent = nullptr);

    const QStringList& experiments() const { return m_experiments; }
    void setHoldout(double share);
    void setSeed(uint64_t seed);
    void setFolds(int folds); // 1: one split at the holdout; 2 to 10: cross-fitting
    // Starts the check with the form's holdout (or folds) and seed; false (and the error shown) when it cannot start.
    bool start();
    void setDeleteWhenClosed(bool remove) { m_deleteWhenClosed = remove; }
    // Closing (Escape, the window's close button) ends here.
    void done(int result) override;

    FidelityController* controller() const { return m_controller; }
    FidelityView* view() const { return m_view; }
    QDoubleSpinBox* holdoutBox() const { return m_holdout; }
    QSpinBox* seedBox() const { return m_seed; }
    QSpinBox* foldsBox() const { return m_folds; }
    QPushButton* checkButton() const { return m_check; }
    QPushButton* cancelButton() const { return m_cancel; }
    QLabel* status() const { return m_status; }

signals:
    // After each check, with its report in view() when `ok`.
    void checked(bool ok);


private:
    void onFinished(bool ok);
    void updateControls();

    QStringList m_experiments;
    FidelityController* m_controller;
    QDoubleSpinBox* m_holdout;
    QSpinBox* m_folds;
    QSpinBox* m_seed;
    QPushButton* m_check;
    QPushButton* m_cancel;
    QProgressBar* m_busy;
    QLabel* m_status;
    FidelityView* m_view;
    QElapsedTimer m_clock;
    bool m_deleteWhenClosed = false;
    bool m_closing = false; // closed mid-check: deleted once it has ended
};

} // namespace conclave::ui
