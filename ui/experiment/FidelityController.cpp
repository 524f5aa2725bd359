#include "experiment/FidelityController.h"

#include "run/RunController.h"

#include "conclave/experiment/FidelityCheck.h"
#include "conclave/session/Engine.h"
#include "conclave/store/RunQueries.h"
#include "conclave/store/RunStore.h"

#include <QMetaObject>

#include <exception>
#include <filesystem>
#include <string>
#include <vector>

namespace conclave::ui {

FidelityController::FidelityController(RunController* runs, QObject* parent) : QObject(parent), m_runs(runs) {}

FidelityController::~FidelityController()
{
    m_cancel = true;
    if (m_thread.joinable())
        m_thread.join();
    // What the thread queued for this object is dropped with it.
}

bool FidelityController::run(const QStringList& experiments, double holdout, uint64_t seed, QString* error, int folds)
{
    const auto fail = [error](const QString& message) {
        if (error)
            *error = message;
        return false;
    };
    if (m_running)
        return fail(tr("a fidelity check is still running"));
    if (experiments.isEmpty())
        return fail(tr("no experiment to check"));
    if (!m_runs->resourceError().isEmpty())
        return fail(m_runs->resourceError());
    const std::filesystem::path db = m_runs->dbFile();
    std::error_code ec;
    // Reading never creates a store.
    if (!std::filesystem::exists(db, ec))
        return fail(tr("%1: no run store there").arg(QString::fromStdString(db.string())));
    if (m_thread.joinable())
        m_thread.join();

    std::vector<std::string> ids;
    for (const QString& id : experiments)
        ids.push_back(id.toStdString());
    FidelityCheck::Options options;
    options.holdout = holdout;
    options.seed = seed;
    options.folds = folds;
    options.cancelled = [this] { return m_cancel.load(); };
    options.progress = [this](const std::string& what) {
        QMetaObject::invokeMethod(
            this,
            [this, what = QString::fromStdString(what)] {
                m_stage = what;
                emit progressed(what);
            },
            Qt::QueuedConnection);
    };
    m_cancel = false;
    m_running = true;
    m_report.reset();
    m_error.clear();
    m_stage.clear();
    m_thread = std::thread([this, resources = m_runs->resources(), resourcesDir = m_runs->resourcesDir(), db,
                            ids = std::move(ids), options = std::move(options)]() mutable {
        std::optional<FidelityReport> report;
        std::string e;
        try {
            auto queries = RunStore::openReader(db, e);
            if (queries) {
                Engine engine(std::move(resources));
                engine.setStore(db); // what the replays read
                report = FidelityCheck::run(engine, *queries, resourcesDir, ids, options, e);
            }
        } catch (const std::exception& x) {
            report.reset();
            e = x.what();
        }
        QMetaObject::invokeMethod(
            this,
            [this, report = std::move(report), e = QString::fromStdString(e)]() mutable {
                onEnded(std::move(report), e);
            },
            Qt::QueuedConnection);
    });
    emit started();
    return true;
}

void FidelityController::cancel()
{
    if (m_running)
        m_cancel = true;
}

void FidelityController::onEnded(std::optional<FidelityReport> report, const QString& error)
{
    if (m_thread.joinable())
        m_thread.join();
    m_running = false;
    m_report = std::move(report);
    m_error = m_report ? QString() : error;
    emit finished(m_report.has_value());
}

} // namespace conclave::ui
