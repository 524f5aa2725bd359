#pragma once

#include "conclave/experiment/ExperimentRunner.h"
#include "conclave/experiment/ExperimentSetup.h"
#include "conclave/experiment/StoredTrials.h"

#include <QObject>
#include <QString>
#include <QStringList>

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

namespace conclave {
class Engine;
}

namespace conclave::ui {

class RunController;

// Runs one experiment at a time for the studio, into the RunController's
// store, on a thread of its own: core's ExperimentRunner does the work, this
// only carries its progress and its end to the GUI thread.
//
// Promises: run() never blocks the GUI thread on a trial; progress arrives as
// progressed() on the GUI thread, at most one delivery queued at a time and
// about every kProgressMs (the last one always), so a fast simulated
// experiment cannot flood the event loop; cancel() dispatches nothing new and
// cancels the trials in flight, keeping every finished one (the experiment
// ends `cancelled`); finished() comes once per run, after the runner's thread
// has ended and the store has been flushed. Destroying the controller
// cancels a running experiment and waits for it.
class ExperimentController : public QObject {
    Q_OBJECT

public:
    static constexpr int kProgressMs = 50;

    struct Options {
        int concurrency = 32;
        std::optional<double> maxCostUsd;
    };

    explicit ExperimentController(RunController* runs, QObject* parent = nullptr);
    ~ExperimentController() override;

    // The spec a request asks for (designs and tasks loaded and checked), or its errors; nothing runs.
    SetupResult prepare(const EvalRequest& request) const;
    // The spec of a stored experiment, to resume it (refused when it is finished, or its files changed).
    SetupResult prepareResume(const QString& id) const;
    // Starts a spec on the runner's thread; false (and why) while another runs or the store cannot open.
    bool run(ExperimentSpec spec, Options options, QString* error = nullptr);
    void cancel();
    // Cancels a running experiment and waits for its thread: before its store goes.
    void halt(const QString& why);

    bool isRunning() const { return m_runner != nullptr; }
    // The experiment running, or the last one run.
    const QString& experimentId() const { return m_id; }
    const QStringList& designNames() const { return m_designs; }
    // The newest progress delivered to the GUI thread.
    const ExperimentRunner::Progress& progress() const { return m_progress; }
    const ExperimentRunner::Outcome& lastOutcome() const { return m_outcome; }

signals:
    void started(const QString& id);
    void progressed();
    void finished(const QString& id, conclave::ExperimentStatus status, const QString& note);

private:
    void onProgress(const ExperimentRunner::Progress& progress);
    void deliverProgress();
    void onRunEnded();

    RunController* m_runs;
    std::unique_ptr<Engine> m_engine;
    std::unique_ptr<StoredTrials> m_sink;
    std::unique_ptr<ExperimentRunner> m_runner;
    std::thread m_thread;
    QString m_id;
    QStringList m_designs;
    ExperimentRunner::Progress m_progress;
    ExperimentRunner::Outcome m_outcome;

    // Between the runner's thread and the GUI thread.
    std::mutex m_mutex;
    ExperimentRunner::Progress m_pending;
    bool m_posted = false;
    std::chrono::steady_clock::time_point m_lastPost;
};

} // namespace conclave::ui
