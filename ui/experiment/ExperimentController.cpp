#include "experiment/ExperimentController.h"

#include "run/RunController.h"

#include "conclave/session/Engine.h"
#include "conclave/store/RunStore.h"

#include <QMetaObject>

namespace conclave::ui {

ExperimentController::ExperimentController(RunController* runs, QObject* parent) : QObject(parent), m_runs(runs)
{
    // The runner's thread writes to the controller's store: it ends before the store does.
    connect(runs, &RunController::storeClosing, this, &ExperimentController::halt);
}

ExperimentController::~ExperimentController()
{
    halt(tr("the studio was closed: the trials in flight were cancelled"));
    // What the thread queued for this object is dropped with it.
}

void ExperimentController::halt(const QString& why)
{
    if (m_runner)
        m_runner->stop(why.toStdString());
    if (m_thread.joinable())
        m_thread.join();
}

SetupResult ExperimentController::prepare(const EvalRequest& request) const
{
    return ExperimentSetup::build(request, m_runs->resourcesDir());
}

SetupResult ExperimentController::prepareResume(const QString& id) const
{
    SetupResult result;
    QString error;
    const auto report = m_runs->loadExperiment(id.toStdString(), &error);
    if (!report) {
        result.errors.push_back(error.toStdString());
        return result;
    }
    if (report->record.status == ExperimentStatus::Finished) {
        result.errors.push_back("experiment " + report->record.id + " is finished; nothing to resume");
        return result;
    }
    return ExperimentSetup::resume(report->record, m_runs->resourcesDir());
}

bool ExperimentController::run(ExperimentSpec spec, Options options, QString* error)
{
    const auto fail = [error](const QString& message) {
        if (error)
            *error = message;
        return false;
    };
    if (m_runner)
        return fail(tr("experiment %1 is still running").arg(m_id));
    if (!m_runs->resourceError().isEmpty())
        return fail(m_runs->resourceError());
    RunStore* store = m_runs->store(error);
    if (!store)
        return false;
    if (m_thread.joinable())
        m_thread.join();
    if (!m_engine)
        m_engine = std::make_unique<Engine>(m_runs->resources());
    m_engine->setStore(m_runs->dbFile());

    ExperimentRunner::Options runnerOptions;
    runnerOptions.concurrency = options.concurrency;
    runnerOptions.maxCostUsd = options.maxCostUsd;
    m_designs.clear();
    for (const auto& name : spec.designNames())
        m_designs.push_back(QString::fromStdString(name));
    m_sink = std::make_unique<StoredTrials>(*store, StoredTrials::Keep::Runs);
    m_runner = std::make_unique<ExperimentRunner>(*m_engine, *m_sink, std::move(spec), runnerOptions);
    m_id = QString::fromStdString(m_runner->id());
    m_progress = {};
    m_outcome = {};
    {
        std::lock_guard lock(m_mutex);
        m_pending = {};
        m_posted = false;
        m_lastPost = {};
    }
    m_runner->setProgressHandler([this](const ExperimentRunner::Progress& p) { onProgress(p); });
    m_thread = std::thread([this, runner = m_runner.get(), store] {
        auto outcome = runner->run();
        store->flush();
        QMetaObject::invokeMethod(
            this,
            [this, outcome = std::move(outcome)]() mutable {
                m_outcome = std::move(outcome);
                onRunEnded();
            },
            Qt::QueuedConnection);
    });
    emit started(m_id);
    return true;
}

void ExperimentController::cancel()
{
    if (m_runner)
        m_runner->stop("cancelled in the studio: the trials in flight were cancelled; the finished ones are kept");
}

// On the runner's thread, after each stored trial: keeps the newest and posts
// it unless a delivery is already queued or one went out less than kProgressMs ago.
void ExperimentController::onProgress(const ExperimentRunner::Progress& progress)
{
    const auto now = std::chrono::steady_clock::now();
    std::lock_guard lock(m_mutex);
    m_pending = progress;
    const bool last = progress.done >= progress.total;
    if (m_posted || (!last && now - m_lastPost < std::chrono::milliseconds(kProgressMs)))
        return;
    m_posted = true;
    m_lastPost = now;
    QMetaObject::invokeMethod(this, &ExperimentController::deliverProgress, Qt::QueuedConnection);
}

void ExperimentController::deliverProgress()
{
    {
        std::lock_guard lock(m_mutex);
        m_progress = m_pending;
        m_posted = false;
    }
    emit progressed();
}

void ExperimentController::onRunEnded()
{
    if (m_thread.joinable())
        m_thread.join();
    m_runner.reset();
    m_sink.reset();
    {
        std::lock_guard lock(m_mutex);
        m_progress = m_pending; // the last trial's, even when its delivery was held back
    }
    emit progressed();
    emit finished(m_id, m_outcome.status,
                  QString::fromStdString(m_outcome.error.empty() ? m_outcome.note : m_outcome.error));
}

} // namespace conclave::ui
