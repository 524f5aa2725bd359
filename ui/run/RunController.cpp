#include "run/RunController.h"

#include "run/RunEventAdapter.h"
#include "run/RunStoreWaiter.h"

#include "conclave/io/FileIo.h"
#include "conclave/io/TeamJson.h"
#include "conclave/session/RecordedStart.h"
#include "conclave/store/RunQueries.h"

namespace conclave::ui {

RunController::RunController(std::filesystem::path resourcesDir, std::filesystem::path dbFile, QObject* parent)
    : QObject(parent), m_resourcesDir(std::move(resourcesDir)), m_dbFile(std::move(dbFile)),
      m_storeWaiter(new RunStoreWaiter(this))
{
    connect(m_storeWaiter, &RunStoreWaiter::stored, this, &RunController::onStored);
    if (m_resourcesDir.empty()) {
        m_resourceError = tr("cannot find the resources folder (set CONCLAVE_RESOURCES)");
        return;
    }
    std::vector<std::string> errors;
    m_resources = EngineResources::load(m_resourcesDir, errors);
    for (const auto& e : errors)
        m_resourceError += (m_resourceError.isEmpty() ? QString() : QStringLiteral("\n")) + QString::fromStdString(e);
}

RunController::~RunController()
{
    emit storeClosing(tr("the studio was closed: the trials in flight were cancelled"));
    if (m_run && !m_run->finished())
        m_run->cancel();
    if (m_run)
        m_run->wait();
    m_adapter.reset(); // not in a drain of its own: nothing runs after the window is gone
    releaseRun();
    m_queries.reset();
    m_engine.reset();
    m_store.reset();
}

// Waits for the run (already ended, or cancelled) and for its recorder, then lets both go.
void RunController::releaseRun()
{
    if (m_run)
        m_run->wait();
    m_storeWaiter->join();
    if (m_recorder)
        m_recorder->waitUntilStored();
    m_run.reset();
    m_recorder.reset();
    // Later: this may be called from a slot of the adapter's own delivered().
    if (m_adapter) {
        m_adapter->disconnect(this);
        m_adapter.release()->deleteLater();
    }
}

bool RunController::setDbFile(std::filesystem::path file)
{
    if (m_running)
        return false;
    if (m_store)
        emit storeClosing(tr("another run store was chosen: the trials in flight were cancelled"));
    releaseRun();
    m_queries.reset();
    m_store.reset();
    m_dbFile = std::move(file);
    return true;
}

RunStore* RunController::store(QString* error)
{
    if (!m_store) {
        auto opened = RunStore::open(m_dbFile);
        if (!opened.store) {
            if (error)
                *error = QString::fromStdString(opened.error);
            return nullptr;
        }
        m_store = std::move(opened.store);
        m_queries.reset();
    }
    return m_store.get();
}

Engine* RunController::engine(QString* error)
{
    if (!m_resourceError.isEmpty()) {
        if (error)
            *error = m_resourceError;
        return nullptr;
    }
    if (!m_engine)
        m_engine = std::make_unique<Engine>(m_resources);
    m_engine->setStore(m_dbFile); // where a recorded backend without a db reads
    return m_engine.get();
}

RunQueries* RunController::queries(QString* error)
{
    if (m_queries)
        return m_queries.get();
    std::string e;
    if (m_store)
        m_queries = m_store->reader(e);
    else if (std::filesystem::exists(m_dbFile)) { // reading never creates a store
        // As the CLI's read commands open it: an older schema is upgraded first.
        m_queries = RunStore::openReader(m_dbFile, e);
    } else
        return nullptr;
    if (!m_queries && error)
        *error = QString::fromStdString(e);
    return m_queries.get();
}

bool RunController::start(const Team& team, const std::string& input, std::optional<uint64_t> seed, QString* error)
{
    return start(team, input, seed, ClockRequest::Real, error);
}

bool RunController::start(const Team& team, const std::string& input, std::optional<uint64_t> seed, ClockRequest clock,
                          QString* error, const std::filesystem::path& teamFolder)
{
    const auto fail = [error](const QString& message) {
        if (error)
            *error = message;
        return false;
    };
    if (m_running)
        return fail(tr("a run is already going"));
    if (!m_resourceError.isEmpty())
        return fail(m_resourceError);
    QString storeError;
    if (!store(&storeError))
        return fail(storeError);
    releaseRun();
    engine();
    const auto prepared = m_engine->prepare(team, teamFolder);
    if (!prepared.team)
        return fail(QString::fromStdString(prepared.error));

    auto adapter = std::make_unique<RunEventAdapter>();
    connect(adapter.get(), &RunEventAdapter::delivered, this, &RunController::onEvents);
    std::vector<RunObserver*> observers{adapter.get()};
    observers.insert(observers.end(), m_extra.begin(), m_extra.end());
    m_nodes.clear();
    for (const auto& node : team.nodes)
        m_nodes[node.id] = LiveNode{};
    // The adapter must exist before the run: its first events come at once.
    m_adapter = std::move(adapter);
    auto launched = startRecorded(*m_engine, m_store.get(), *prepared.team, input,
                                  Engine::StartOptions{seed, observers, clock, {}, {}},
                                  RunOrigin{RunSource::Studio, {}, {}});
    if (!launched.run) {
        m_adapter.reset();
        return fail(QString::fromStdString(launched.error));
    }
    m_recorder = std::move(launched.recorder);
    m_run = std::move(launched.run);
    m_runId = m_recorder->id();
    // Its events reach onEvents from the event loop, so none is missed: they are queued until then.
    m_live = std::make_unique<LiveRun>(*m_runId, m_run->plan().team());
    m_running = true;
    m_result.reset();
    m_clock.start();
    emit started(*m_runId);
    return true;
}

bool RunController::rerun(const RunId& id, QString* error)
{
    auto stored = loadRun(id, false, error);
    if (!stored)
        return false;
    auto loaded = teamFromJsonText(stored->teamJson);
    if (!loaded.team) {
        if (error)
            *error = tr("run %1: its stored team cannot be read").arg(QString::fromStdString(id.str()));
        return false;
    }
    const auto clock = stored->summary.clock == ClockKind::Virtual ? ClockRequest::Virtual : ClockRequest::Real;
    return start(*loaded.team, stored->summary.input, stored->summary.seed, clock, error);
}

void RunController::stop()
{
    if (m_running && m_run)
        m_run->cancel();
}

const LiveNode* RunController::liveNode(const NodeId& node) const
{
    const auto it = m_nodes.find(node);
    return it == m_nodes.end() ? nullptr : &it->second;
}

std::optional<ClockKind> RunController::clockKind() const
{
    return m_run ? std::optional<ClockKind>(m_run->clock().kind()) : std::nullopt;
}

int64_t RunController::runNowUs() const
{
    if (m_run && !m_run->finished())
        return m_run->nowUs();
    return m_result ? m_result->wallUs : 0;
}

std::optional<NodeId> RunController::outputNode() const
{
    if (!m_run)
        return std::nullopt;
    const RunPlan& plan = m_run->plan();
    return plan.team().nodes[plan.outputIndex()].id;
}

qint64 RunController::runningMs(const NodeId& node) const
{
    const auto* n = liveNode(node);
    if (!n || n->startedAtMs < 0 || !m_clock.isValid())
        return 0;
    return m_clock.elapsed() - n->startedAtMs;
}

void RunController::onEvents(const std::vector<RunEvent>& events)
{
    emit eventsDelivered(events);
    for (const auto& e : events) {
        if (m_live)
            feed(*m_live, e);
        switch (e.type) {
        case RunEvent::Type::RunStarted:
            break;
        case RunEvent::Type::NodeQueued: {
            // A meeting's member is queued as a node after its first turn began: it stays running.
            auto& n = m_nodes[e.node];
            if (n.status == Status::Running)
                break;
            n.status = Status::Queued;
            emit nodeChanged(e.node);
            break;
        }
        case RunEvent::Type::SpanStarted:
            // A node runs from its node span; a meeting's member, which has none while the meeting
            // lasts, from its first turn.
            if (e.span.kind == SpanKind::Node || m_nodes[e.node].status == Status::Queued) {
                auto& n = m_nodes[e.node];
                if (n.startedUs < 0) {
                    n.startedUs = e.span.startUs;
                    n.startedAtMs = m_clock.elapsed();
                }
                if (n.status != Status::Running) {
                    n.status = Status::Running;
                    emit nodeChanged(e.node);
                }
            }
            break;
        case RunEvent::Type::Token:
            m_nodes[e.node].text += e.text;
            emit nodeTextChanged(e.node);
            break;
        case RunEvent::Type::SpanFinished:
            break;
        case RunEvent::Type::NodeFinished: {
            auto& n = m_nodes[e.node];
            n.finishedUs = e.atUs;
            n.result = e.result;
            n.status = e.result.status;
            if (!e.result.text.empty() && n.text != e.result.text) {
                n.text = e.result.text;
                emit nodeTextChanged(e.node);
            }
            emit nodeChanged(e.node);
            break;
        }
        case RunEvent::Type::RunFinished:
            m_result = e.run;
            // Still running until the store has it all; stored() ends it (onStored).
            if (m_recorder)
                m_storeWaiter->wait(m_recorder.get());
            else
                onStored();
            break;
        }
    }
}

void RunController::feed(LiveRun& live, const RunEvent& e)
{
    switch (e.type) {
    case RunEvent::Type::RunStarted:
        live.runStarted(e.text, e.seed, e.clock);
        break;
    case RunEvent::Type::NodeQueued:
        live.nodeQueued(e.node, e.atUs);
        break;
    case RunEvent::Type::SpanStarted:
        live.spanStarted(e.span);
        break;
    case RunEvent::Type::Token:
        break;
    case RunEvent::Type::SpanFinished:
        live.spanFinished(e.span);
        break;
    case RunEvent::Type::NodeFinished:
        live.nodeFinished(e.node, e.result, e.atUs);
        break;
    case RunEvent::Type::RunFinished:
        live.runFinished(*e.run);
        break;
    }
}

void RunController::onStored()
{
    if (!m_running || !m_result)
        return;
    m_running = false;
    emit finished(*m_runId, m_result->status);
}

// A query on the reader, or `empty` when no store file exists yet (reading never creates one).
template <typename T, typename Query> std::optional<T> RunController::read(Query query, T empty, QString* error)
{
    QString e;
    auto* q = queries(&e);
    if (!q) {
        if (!e.isEmpty()) {
            if (error)
                *error = e;
            return std::nullopt;
        }
        return empty;
    }
    std::string queryError;
    auto result = query(*q, queryError);
    if (!result && error)
        *error = QString::fromStdString(queryError);
    return result;
}

std::optional<std::vector<RunSummary>> RunController::listRuns(const RunFilter& filter, QString* error)
{
    return read<std::vector<RunSummary>>([&filter](RunQueries& q, std::string& e) { return q.list(filter, e); }, {},
                                         error);
}

std::optional<int64_t> RunController::countRuns(const RunFilter& filter, QString* error)
{
    return read<int64_t>([&filter](RunQueries& q, std::string& e) { return q.count(filter, e); }, 0, error);
}

std::optional<std::vector<std::string>> RunController::teamNames(QString* error)
{
    return read<std::vector<std::string>>([](RunQueries& q, std::string& e) { return q.teamNames(e); }, {}, error);
}

std::optional<StoredRun> RunController::loadRun(const RunId& id, bool withText, QString* error)
{
    QString e;
    auto* q = queries(&e);
    if (!q) {
        if (error)
            *error = e.isEmpty() ? tr("no run store at %1").arg(QString::fromStdString(m_dbFile.string())) : e;
        return std::nullopt;
    }
    std::string loadError;
    auto run = q->load(id, withText, loadError);
    if (!run && error)
        *error = QString::fromStdString(loadError);
    return run;
}

bool RunController::deleteRuns(const std::vector<RunId>& ids, QString* error)
{
    auto* s = store(error);
    if (!s)
        return false;
    for (const auto& id : ids) {
        if (m_running && m_runId && *m_runId == id) {
            if (error)
                *error = tr("run %1 is still going").arg(QString::fromStdString(id.str()));
            return false;
        }
    }
    const auto deleted = s->remove(ids);
    if (!deleted.error.empty()) {
        if (error)
            *error = QString::fromStdString(deleted.error);
        return false;
    }
    return true;
}

bool RunController::exportRun(const RunId& id, ExportFormat format, const QString& path, QString* error)
{
    const auto run = loadRun(id, format == ExportFormat::Json, error);
    if (!run)
        return false;
    if (auto e = writeFileAtomically(path.toStdString(), conclave::exportRun(*run, format))) {
        if (error)
            *error = QStringLiteral("%1: %2").arg(path, QString::fromStdString(*e));
        return false;
    }
    return true;
}

std::optional<std::vector<ExperimentRecord>> RunController::experiments(QString* error)
{
    return read<std::vector<ExperimentRecord>>([](RunQueries& q, std::string& e) { return q.experiments(e); }, {},
                                               error);
}

std::optional<ExperimentReport> RunController::loadExperiment(const std::string& id, QString* error)
{
    QString e;
    auto* q = queries(&e);
    if (!q) {
        if (error)
            *error = e.isEmpty() ? tr("no run store at %1").arg(QString::fromStdString(m_dbFile.string())) : e;
        return std::nullopt;
    }
    std::string loadError;
    auto report = ExperimentReport::load(*q, id, loadError);
    if (!report && error)
        *error = QString::fromStdString(loadError);
    return report;
}

bool RunController::deleteExperiment(const std::string& id, QString* error)
{
    auto* s = store(error);
    if (!s)
        return false;
    const auto deleted = s->removeExperiment(id);
    if (!deleted.error.empty()) {
        if (error)
            *error = QString::fromStdString(deleted.error);
        return false;
    }
    return true;
}

} // namespace conclave::ui
