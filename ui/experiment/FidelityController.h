#pragma once

#include "conclave/experiment/FidelityReport.h"

#include <QObject>
#include <QString>
#include <QStringList>

#include <atomic>
#include <optional>
#include <thread>

namespace conclave::ui {

class RunController;

// Runs core's FidelityCheck (`conclave fidelity`) for the studio on a thread
// of its own, on an engine made as the studio makes them (the
// RunController's resources, its store set so the replays read it) and a
// reader of that store opened on that thread; it only carries the check's
// stages and its end to the GUI thread.
//
// Promises: run() never blocks the GUI thread; each stage the check starts
// arrives as progressed() on the GUI thread; finished() comes once per run,
// after the thread has ended, with report() or error() set. cancel() ends the
// check before its next stage (FidelityCheck::Options::cancelled): a stage
// under way, which may take seconds, runs to its end first, then finished()
// comes with the error "cancelled". Destroying the controller cancels a
// running check and waits for that stage to end.
class FidelityController : public QObject {
    Q_OBJECT

public:
    explicit FidelityController(RunController* runs, QObject* parent = nullptr);
    ~FidelityController() override;

    // Starts the check of `experiments` (ids or unique prefixes); false (and why) while one runs or
    // when the resources or the store are missing.
    // folds ≥ 2: cross-fitting over that many parts (FidelityCheck::Options::folds), holdout unused.
    bool run(const QStringList& experiments, double holdout, uint64_t seed, QString* error = nullptr, int folds = 1);
    void cancel();

    bool isRunning() const { return m_running; }
    bool isCancelling() const { return m_running && m_cancel; }
    // The last check's report, or its error ("cancelled" when it was).
    const std::optional<FidelityReport>& report() const { return m_report; }
    const QString& error() const { return m_error; }
    // The stage the running check is in (empty before the first).
    const QString& stage() const { return m_stage; }

signals:
    void started();
    void progressed(const QString& stage);
    void finished(bool ok);

private:
    void onEnded(std::optional<FidelityReport> report, const QString& error);

    RunController* m_runs;
    std::thread m_thread;
    std::atomic<bool> m_cancel = false; // read by the check's thread
    bool m_running = false;
    std::optional<FidelityReport> m_report;
    QString m_error;
    QString m_stage;
};

} // namespace conclave::ui
