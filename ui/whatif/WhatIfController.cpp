#include "whatif/WhatIfController.h"

#include "conclave/session/Engine.h"
#include "conclave/store/RunQueries.h"
#include "conclave/store/RunStore.h"
#include "conclave/whatif/WhatIf.h"

#include <QMetaObject>

#include <chrono>
#include <exception>

namespace conclave::ui {

struct WhatIfController::Loaded {
    StoredRun stored;
    Team team;
    bool waitsRecorded = true;
};

namespace {

// The stored run with the projection's spans, critical path and totals: what the timeline ghosts over it.
std::shared_ptr<const TimelineModel> timelineOf(const StoredRun& stored, const RunResult& projected)
{
    StoredRun run;
    run.summary = stored.summary;
    static_cast<RunTotals&>(run.summary) = projected;
    run.summary.status = projected.status;
    run.summary.criticalPathUs = projected.criticalPath.lengthUs;
    run.teamJson = stored.teamJson; // the same lanes
    run.output = projected.output;
    run.criticalPath = projected.criticalPath.nodes;
    run.spans = projected.spans;
    return std::make_shared<const TimelineModel>(std::move(run));
}

} // namespace

WhatIfController::WhatIfController(EngineResources resources, std::filesystem::path db, QObject* parent)
    : QObject(parent), m_resources(std::move(resources)), m_db(std::move(db))
{
}

WhatIfController::~WhatIfController()
{
    {
        const std::lock_guard lock(m_mutex);
        m_stop = true;
    }
    m_wake.notify_all();
    if (m_projector.joinable())
        m_projector.join();
    if (m_profiler.joinable())
        m_profiler.join();
    // What the threads queued for this object is dropped with it.
}

void WhatIfController::load(const std::string& run)
{
    if (m_projector.joinable())
        return;
    m_projector = std::thread([this, run] { project(run); });
    m_profiler = std::thread([this, run] { computeProfile(run); });
}

uint64_t WhatIfController::request(WhatIfChanges changes)
{
    const uint64_t number = ++m_latest;
    {
        const std::lock_guard lock(m_mutex);
        m_next.emplace(number, std::move(changes));
    }
    m_wake.notify_one();
    return number;
}

// The projector thread: loads the run, then projects each newest request until stopped.
void WhatIfController::project(const std::string& run)
{
    std::string error;
    std::optional<Engine> engine; // before the what-if that points to it
    std::optional<WhatIf> whatIf;
    try {
        const auto queries = RunStore::openReader(m_db, error);
        if (queries) {
            engine.emplace(m_resources);
            engine->setStore(m_db);
            whatIf = WhatIf::load(*engine, *queries, run, error);
        }
    } catch (const std::exception& x) {
        whatIf.reset();
        error = x.what();
    }
    std::shared_ptr<Loaded> loaded;
    if (whatIf)
        loaded = std::make_shared<Loaded>(Loaded{whatIf->stored(), whatIf->team(), whatIf->waitsRecorded()});
    QMetaObject::invokeMethod(
        this, [this, loaded, e = QString::fromStdString(error)] { onLoaded(loaded, e); }, Qt::QueuedConnection);
    if (!whatIf)
        return;
    for (;;) {
        std::pair<uint64_t, WhatIfChanges> next;
        {
            std::unique_lock lock(m_mutex);
            m_wake.wait(lock, [this] { return m_stop || m_next.has_value(); });
            if (m_stop)
                return;
            next = std::move(*m_next);
            m_next.reset();
        }
        const auto began = std::chrono::steady_clock::now();
        auto projection = std::make_shared<WhatIfProjection>();
        projection->request = next.first;
        projection->changes = std::move(next.second);
        error.clear();
        std::optional<WhatIfReport> report;
        std::optional<RunResult> result;
        try {
            RunResult projected;
            report = whatIf->project(projection->changes, error, &projected);
            if (report)
                result = std::move(projected);
        } catch (const std::exception& x) {
            result.reset();
            error = x.what();
        }
        std::shared_ptr<const WhatIfProjection> done;
        if (report && result) {
            projection->report = std::move(*report);
            projection->timeline = timelineOf(whatIf->stored(), *result);
            projection->computeUs =
                std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - began).count();
            done = std::move(projection);
        }
        QMetaObject::invokeMethod(
            this,
            [this, done, request = next.first, e = QString::fromStdString(error)] { onProjected(done, request, e); },
            Qt::QueuedConnection);
    }
}

// The profiler thread: its own engine and load of the run, then the one profile.
void WhatIfController::computeProfile(const std::string& run)
{
    std::string error;
    std::shared_ptr<const SpeedupProfile> profile;
    try {
        const auto queries = RunStore::openReader(m_db, error);
        if (queries) {
            Engine engine(m_resources);
            engine.setStore(m_db);
            if (const auto whatIf = WhatIf::load(engine, *queries, run, error))
                if (auto computed = whatIf->profile(error))
                    profile = std::make_shared<const SpeedupProfile>(std::move(*computed));
        }
    } catch (const std::exception& x) {
        profile.reset();
        error = x.what();
    }
    QMetaObject::invokeMethod(
        this,
        [this, profile, e = QString::fromStdString(error)] {
            if (!profile) {
                emit profileFailed(e);
                return;
            }
            m_profile = std::make_unique<const SpeedupProfile>(*profile);
            emit profiled();
        },
        Qt::QueuedConnection);
}

void WhatIfController::onLoaded(std::shared_ptr<Loaded> run, const QString& error)
{
    if (run) {
        m_stored = std::make_unique<const StoredRun>(std::move(run->stored));
        m_team = std::move(run->team);
        m_waitsRecorded = run->waitsRecorded;
    }
    emit loaded(run != nullptr, error);
}

void WhatIfController::onProjected(std::shared_ptr<const WhatIfProjection> projection, uint64_t request,
                                   const QString& error)
{
    m_answered = std::max(m_answered, request);
    if (request != m_latest)
        return; // overtaken by a later request: never drawn
    if (!projection) {
        emit projectionFailed(error);
        return;
    }
    m_current = std::move(projection);
    emit projected(m_current);
}

} // namespace conclave::ui
