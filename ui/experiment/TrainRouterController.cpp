#include "experiment/TrainRouterController.h"

#include "run/RunController.h"

#include "conclave/experiment/CalibrationSamples.h"
#include "conclave/io/FileIo.h"
#include "conclave/routing/RouterFile.h"
#include "conclave/store/RunQueries.h"
#include "conclave/store/RunStore.h"

#include <QMetaObject>

#include <exception>
#include <filesystem>
#include <utility>

namespace conclave::ui {

TrainRouterController::TrainRouterController(RunController* runs, QObject* parent) : QObject(parent), m_runs(runs) {}

TrainRouterController::~TrainRouterController()
{
    m_cancel = true;
    if (m_thread.joinable())
        m_thread.join();
    // What the thread queued for this object is dropped with it.
}

bool TrainRouterController::readModels(const QStringList& experiments, QString* error)
{
    std::vector<std::string> ids;
    for (const QString& id : experiments)
        ids.push_back(id.toStdString());
    const std::filesystem::path resourcesDir = m_runs->resourcesDir();
    return start(
        experiments, false,
        [ids = std::move(ids), resourcesDir](RunQueries& store, Outcome& outcome) {
            auto samples = CalibrationSamples::read(store, ids, resourcesDir, outcome.error);
            if (samples)
                outcome.models = RouterTraining::answeringModels(*samples);
        },
        error);
}

bool TrainRouterController::train(const RouterTraining::Options& options, const QString& output, QString* error)
{
    QStringList experiments;
    for (const auto& id : options.experiments)
        experiments << QString::fromStdString(id);
    if (!experiments.isEmpty() && output.trimmed().isEmpty()) {
        if (error)
            *error = tr("no router file to write: choose where to save it");
        return false;
    }
    const std::filesystem::path resourcesDir = m_runs->resourcesDir();
    const std::string path = output.toStdString();
    Job job = [this, options, path, resourcesDir, gate = m_runs->resources().gate](RunQueries& store,
                                                                                   Outcome& outcome) {
        auto result = RouterTraining::run(store, options, resourcesDir, gate, outcome.error);
        if (!result)
            return;
        if (m_cancel) { // before the file: a cancelled training writes none
            outcome.error = "cancelled";
            return;
        }
        if (const auto failed = writeFileAtomically(path, RouterFile::toJsonText(result->model))) {
            outcome.error = path + ": " + *failed;
            return;
        }
        outcome.result = std::move(result);
    };
    if (!start(experiments, true, std::move(job), error))
        return false;
    m_output = output;
    return true;
}

bool TrainRouterController::start(const QStringList& experiments, bool training, Job job, QString* error)
{
    const auto fail = [error](const QString& message) {
        if (error)
            *error = message;
        return false;
    };
    if (m_busy)
        return fail(training ? tr("the models are still being read, or a training runs")
                             : tr("a training is still running"));
    if (experiments.isEmpty())
        return fail(tr("no experiment to train on: check one or more"));
    if (!m_runs->resourceError().isEmpty())
        return fail(m_runs->resourceError());
    const std::filesystem::path db = m_runs->dbFile();
    std::error_code ec;
    if (!std::filesystem::exists(db, ec)) // reading never creates a store
        return fail(tr("%1: no run store there").arg(QString::fromStdString(db.string())));
    if (m_thread.joinable())
        m_thread.join();

    m_cancel = false;
    m_busy = true;
    m_training = training;
    m_error.clear();
    m_pendingOf = experiments;
    if (training)
        m_result.reset();
    m_thread = std::thread([this, db, training, job = std::move(job)] {
        Outcome outcome;
        try {
            auto store = RunStore::openReader(db, outcome.error);
            if (store)
                job(*store, outcome);
        } catch (const std::exception& x) {
            outcome = Outcome{};
            outcome.error = x.what();
        }
        QMetaObject::invokeMethod(
            this, [this, training, outcome = std::move(outcome)]() mutable { onEnded(training, std::move(outcome)); },
            Qt::QueuedConnection);
    });
    return true;
}

void TrainRouterController::cancel()
{
    if (m_busy)
        m_cancel = true;
}

void TrainRouterController::onEnded(bool training, Outcome outcome)
{
    if (m_thread.joinable())
        m_thread.join();
    m_busy = false;
    // A job cancelled after its file was written still reports it: the file is there.
    const bool ok = training ? outcome.result.has_value() : (outcome.models.has_value() && !m_cancel);
    m_error =
        ok ? QString() : (m_cancel && !training ? QStringLiteral("cancelled") : QString::fromStdString(outcome.error));
    if (training) {
        m_result = std::move(outcome.result);
        emit trained(ok);
        return;
    }
    if (ok) {
        m_models = std::move(*outcome.models);
        m_modelsOf = m_pendingOf;
    }
    emit modelsRead(ok);
}

} // namespace conclave::ui
