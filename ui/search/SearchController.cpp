#include "search/SearchController.h"

#include "run/RunController.h"

#include "conclave/io/FileIo.h"
#include "conclave/search/SearchOutput.h"
#include "conclave/search/SearchCommandLine.h"
#include "conclave/search/SearchReport.h"
#include "conclave/search/StoreSearchJournal.h"
#include "conclave/session/Engine.h"
#include "conclave/store/SearchStore.h"

#include <QMetaObject>

#include <cstdio>
#include <exception>

namespace conclave::ui {

namespace {

constexpr char kSpaceFile[] = "space.json";
constexpr char kReportFile[] = "report.json";

} // namespace

SearchController::SearchController(RunController* runs, QObject* parent) : QObject(parent), m_runs(runs)
{
    m_held.setSingleShot(true);
    m_held.setTimerType(Qt::PreciseTimer); // a coarse timer may fire 5 % early
    connect(&m_held, &QTimer::timeout, this, &SearchController::emitWhenDue);
    // The search's thread journals into the controller's store: it ends before the store does.
    connect(runs, &RunController::storeClosing, this, &SearchController::halt);
}

SearchController::~SearchController()
{
    halt(tr("the studio was closed: the front so far is kept"));
    // What the thread queued for this object is dropped with it.
}

void SearchController::halt(const QString& why)
{
    if (m_search)
        m_search->stop(why.toStdString());
    if (m_thread.joinable())
        m_thread.join();
}

SearchSetupResult SearchController::prepare(const SearchRequest& request) const
{
    return SearchSetup::build(request, m_runs->resourcesDir());
}

std::filesystem::path SearchController::outputDir() const
{
    if (m_id.isEmpty())
        return {};
    return m_runs->dbFile().parent_path() / "searches" / m_id.toStdString();
}

// As `conclave search` spells its own: the base's file, the space file written beside the front, every option.
std::string SearchController::commandOf() const
{
    const auto& base = m_space->bases().front();
    const auto dir = outputDir();
    SearchCommandLine::Files files;
    files.bases = {base.path.empty() ? std::string("TEAM.team.json") : base.path};
    files.space = (dir / kSpaceFile).string();
    files.taskset = m_tasksetName;
    files.output = dir.string();
    files.force = true;
    return SearchCommandLine::of(files, m_options);
}

bool SearchController::start(SearchSetupResult setup, DesignSearch::Options options, QString* error)
{
    const auto fail = [error](const QString& message) {
        if (error)
            *error = message;
        return false;
    };
    if (m_running)
        return fail(tr("a search is still running"));
    if (!m_runs->resourceError().isEmpty())
        return fail(m_runs->resourceError());
    if (!setup.space || !setup.tasks)
        return fail(tr("the search is not set up"));
    if (m_thread.joinable())
        m_thread.join();
    m_search.reset(); // it refers to the space and the engine replaced below
    if (!m_engine)
        m_engine = std::make_unique<Engine>(m_runs->resources());
    const auto db = m_runs->dbFile();
    m_engine->setStore(db);
    options.references = setup.references;
    m_space = std::make_unique<SearchSpace>(std::move(*setup.space));
    m_tasks = std::move(setup.tasks);
    m_tasksetName = setup.tasksetName;
    m_options = std::move(options);
    const auto spec = SearchReport::specJson(*m_space, m_tasksetName, *m_tasks, m_options);
    m_id = QString::fromStdString(SearchReport::idOf(spec));
    m_command = commandOf();
    m_search = std::make_unique<DesignSearch>(*m_engine, *m_space, m_tasks, m_options);
    m_search->setProgressHandler([this](const DesignSearch::Progress& p) { onProgress(p); });
    m_running = true;
    m_result.reset();
    m_report = {};
    m_writeError.clear();
    m_progress = {};
    m_updates = 0;
    m_held.stop();
    m_lastEmit = {};
    {
        std::lock_guard lock(m_mutex);
        m_pending = {};
        m_posted = false;
    }

    std::string name = "search of ";
    for (size_t b = 0; b < m_space->bases().size(); ++b)
        name += (b ? ", " : "") + m_space->bases()[b].team.name;
    SearchRecord record;
    record.id = m_id.toStdString();
    record.name = name;
    record.specJson = spec.dump();
    record.command = m_command;
    m_thread = std::thread([this, db, record = std::move(record), dir = outputDir()] {
        DesignSearch::Result result;
        nlohmann::ordered_json report;
        std::string problem;
        try {
            std::string e;
            auto store = SearchStore::open(db, true, e);
            std::optional<StoreSearchJournal> journal;
            if (store) {
                if (auto refused = store->begin(record))
                    e = *refused;
                else
                    journal.emplace(*store, record.id);
            }
            if (!journal)
                problem = "the search was not journaled in the run store: " + e;
            m_search->setJournal(journal ? &*journal : nullptr);
            result = m_search->run();
            report = SearchReport::toJson(result, m_options, record.id, m_command);
            if (result.status == DesignSearch::Status::Finished && !result.front.empty()) {
                std::vector<std::string> baseFiles;
                std::vector<std::string> baseNames;
                for (const auto& b : m_space->bases()) {
                    baseFiles.push_back(b.path);
                    baseNames.push_back(b.team.name);
                }
                auto files = SearchOutput::fileNames(dir, report, baseFiles, baseNames);
                report = SearchReport::toJson(result, m_options, record.id, m_command, files);
                auto written = SearchOutput::prepare(dir, true);
                if (!written)
                    written = SearchOutput::write(dir, report, baseFiles);
                if (!written) {
                    nlohmann::ordered_json space{{"format", SearchSpace::kFormat},
                                                 {"parameters", m_space->toJson()["parameters"]}};
                    written = writeFileAtomically(dir / kSpaceFile, space.dump(2) + "\n");
                }
                if (!written)
                    written = writeFileAtomically(dir / kReportFile, report.dump(2) + "\n");
                if (written) {
                    problem = *written;
                    report = SearchReport::toJson(result, m_options, record.id, m_command);
                }
            }
            if (journal) {
                const std::string status = report["status"].get<std::string>();
                store->end(record.id, status,
                           result.status == DesignSearch::Status::Failed ? result.error : result.note, report.dump(),
                           result.searchTrials + result.validationTrials + result.testTrials, result.seconds);
            }
            if (journal && !journal->error().empty())
                problem = "not everything was journaled (" + journal->error() + ")";
        } catch (const std::exception& x) {
            result.status = DesignSearch::Status::Failed;
            result.error = x.what();
            report = SearchReport::toJson(result, m_options, record.id, m_command);
        }
        QMetaObject::invokeMethod(
            this,
            [this, result = std::move(result), report = std::move(report),
             problem = QString::fromStdString(problem)]() mutable {
                onEnded(std::move(result), std::move(report), problem);
            },
            Qt::QueuedConnection);
    });
    emit started();
    return true;
}

void SearchController::stop()
{
    if (m_running && m_search)
        m_search->stop("stopped in the studio: the front so far is kept");
}

// On the search's thread: keeps the newest and posts a delivery unless one is queued.
void SearchController::onProgress(const DesignSearch::Progress& progress)
{
    std::lock_guard lock(m_mutex);
    m_pending = progress;
    if (m_posted)
        return;
    m_posted = true;
    QMetaObject::invokeMethod(this, &SearchController::deliver, Qt::QueuedConnection);
}

// On the GUI thread: at most one progressed() per kProgressMs; one held back waits for m_held.
void SearchController::deliver()
{
    {
        std::lock_guard lock(m_mutex);
        m_posted = false;
    }
    if (!m_held.isActive())
        emitWhenDue();
}

// Emits the pending progress once kProgressMs have passed since the last one,
// else holds it back on m_held; checked again when m_held fires, since even a
// precise timer may fire a fraction of a millisecond early on the clock used here.
void SearchController::emitWhenDue()
{
    const auto since = std::chrono::steady_clock::now() - m_lastEmit;
    const auto wait = std::chrono::milliseconds(kProgressMs) - since;
    if (wait > std::chrono::milliseconds(0)) {
        m_held.start(int(std::chrono::duration_cast<std::chrono::milliseconds>(wait).count()) + 1);
        return;
    }
    emitProgress();
}

void SearchController::emitProgress()
{
    {
        std::lock_guard lock(m_mutex);
        m_progress = m_pending;
    }
    m_lastEmit = std::chrono::steady_clock::now();
    ++m_updates;
    emit progressed();
}

void SearchController::onEnded(DesignSearch::Result result, nlohmann::ordered_json report, QString writeError)
{
    if (m_thread.joinable())
        m_thread.join();
    m_held.stop();
    m_running = false;
    m_result = std::move(result);
    m_report = std::move(report);
    m_writeError = std::move(writeError);
    emitProgress(); // the last one, even when it was held back
    emit finished(m_result->status);
}

} // namespace conclave::ui
