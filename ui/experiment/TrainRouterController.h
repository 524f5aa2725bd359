#pragma once

#include "conclave/experiment/RouterTraining.h"

#include <QObject>
#include <QString>
#include <QStringList>

#include <atomic>
#include <functional>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace conclave::ui {

class RunController;

// Runs core's RouterTraining (`conclave train-router`) for the studio on a
// thread of its own, over a reader of the RunController's store opened on
// that thread, with the studio's gate; it only carries the end of each job
// to the GUI thread. Two jobs, one at a time: reading which models answered
// in some experiments (RouterTraining::answeringModels), and training a
// router and writing its file (RouterFile, writeFileAtomically: the file is
// whole or not written).
//
// Promises: neither job blocks the GUI thread; each that starts ends in
// exactly one modelsRead() or trained(), on the GUI thread, after its thread
// has ended, with models() or result() set, else error(). cancel() cannot cut
// a training short (core has no hook for it): the job runs to its end, then
// its outcome is dropped, no file is written, and it ends with the error
// "cancelled". Destroying the controller waits for a running job to end.
class TrainRouterController : public QObject {
    Q_OBJECT

public:
    explicit TrainRouterController(RunController* runs, QObject* parent = nullptr);
    ~TrainRouterController() override;

    // Starts reading the models that answered in `experiments` (ids or unique prefixes); false (and why)
    // while a job runs, with no experiment, or when the resources or the store are missing.
    bool readModels(const QStringList& experiments, QString* error = nullptr);
    // Starts training with `options` and writing the router to `output`; false (and why) as readModels.
    bool train(const RouterTraining::Options& options, const QString& output, QString* error = nullptr);
    void cancel();

    bool isBusy() const { return m_busy; }
    bool isTraining() const { return m_busy && m_training; }
    bool isCancelling() const { return m_busy && m_cancel; }
    // The last job's outcome: the models read, or the training and the file written; its error otherwise.
    const std::vector<std::string>& models() const { return m_models; }
    const QStringList& modelsOf() const { return m_modelsOf; } // the experiments models() was read from
    const std::optional<RouterTraining::Result>& result() const { return m_result; }
    const QString& output() const { return m_output; }
    const QString& error() const { return m_error; }

signals:
    void modelsRead(bool ok);
    void trained(bool ok);

private:
    struct Outcome {
        std::optional<std::vector<std::string>> models;
        std::optional<RouterTraining::Result> result;
        std::string error;
    };
    using Job = std::function<void(RunQueries& store, Outcome& outcome)>;

    bool start(const QStringList& experiments, bool training, Job job, QString* error);
    void onEnded(bool training, Outcome outcome);

    RunController* m_runs;
    std::thread m_thread;
    std::atomic<bool> m_cancel = false; // read by the job's thread
    bool m_busy = false;
    bool m_training = false; // the running job is a training
    std::vector<std::string> m_models;
    QStringList m_modelsOf;
    QStringList m_pendingOf; // the running job's experiments
    std::optional<RouterTraining::Result> m_result;
    QString m_output;
    QString m_error;
};

} // namespace conclave::ui
