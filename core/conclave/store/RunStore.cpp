#include "conclave/store/RunStore.h"

#include "conclave/model/Team.h"
#include "conclave/store/LiveStatus.h"
#include "conclave/store/StoreFileCheck.h"
#include "conclave/store/StoreSchema.h"

#include <sqlite3.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <iomanip>
#include <random>
#include <sstream>

namespace conclave {

namespace {

namespace fs = std::filesystem;

bool isCorruption(int code)
{
    return code == SQLITE_CORRUPT || code == SQLITE_NOTADB;
}

} // namespace

RunStore::Opened RunStore::open(const fs::path& file)
{
    return open(file, Options{});
}

RunStore::Opened RunStore::openForReading(const fs::path& file)
{
    Options options;
    options.access = Access::Read;
    return open(file, options);
}

RunStore::Opened RunStore::open(const fs::path& file, Options options)
{
    const std::string name = file.string();
    const bool reading = options.access == Access::Read;
    std::error_code ec;
    const bool exists = fs::exists(file, ec);
    if (exists) {
        if (auto problem =
                StoreFileCheck::file(file, reading ? StoreFileCheck::Access::Read : StoreFileCheck::Access::Write))
            return {nullptr, *problem};
    } else if (reading) {
        return {nullptr, name + ": no such run store"};
    } else if (file.has_parent_path() && !fs::exists(file.parent_path(), ec)) {
        fs::create_directories(file.parent_path(), ec);
        if (ec)
            return {nullptr, name + ": cannot create its folder (" + ec.message() + ")"};
    }
    // A reader of a file it may not write opens it read-only, and as immutable when no
    // process has it open for writing, so that nothing is made beside it either.
    auto mode = exists ? SqliteDb::Mode::ReadWrite : SqliteDb::Mode::Create;
    if (reading && !StoreFileCheck::writable(file))
        mode = StoreFileCheck::atRest(file) ? SqliteDb::Mode::AtRest : SqliteDb::Mode::ReadOnly;
    SqliteDb db;
    if (auto e = db.open(file, mode))
        return {nullptr, name + ": cannot open (" + *e + ")"};
    if (!reading && db.readOnly())
        return {nullptr, name + ": the database is read-only"};

    // Reads only, until the file is known to be ours and not from the future.
    int64_t version = 0;
    if (auto problem = StoreFileCheck::contents(db, file, version))
        return {nullptr, *problem};
    if (!LiveStatus::define(db))
        return {nullptr, name + ": cannot open (" + db.lastError() + ")"};

    if (reading) {
        if (version < StoreSchema::currentVersion()) {
            if (mode != SqliteDb::Mode::ReadWrite || db.readOnly())
                return {nullptr, name + ": store schema version " + std::to_string(version) + " needs upgrading to " +
                                     std::to_string(StoreSchema::currentVersion()) +
                                     ", but the file is read-only; make it writable and run conclave runs list --db " +
                                     name + " once to upgrade it"};
            if (auto problem = migrate(db, file))
                return {nullptr, *problem};
        }
        return {std::unique_ptr<RunStore>(new RunStore(file, std::move(db), mode, options)), {}};
    }

    if (auto e = db.exec("PRAGMA journal_mode = WAL"))
        return {nullptr, name + ": cannot switch to WAL (" + *e + ")"};
    db.exec("PRAGMA synchronous = NORMAL");
    if (auto problem = migrate(db, file))
        return {nullptr, *problem};
    std::unique_ptr<RunStore> store(new RunStore(file, std::move(db), mode, options));
    store->m_recovered = store->recoverInterrupted();
    store->m_recoveredExperiments = store->recoverExperiments();
    return {std::move(store), {}};
}

std::optional<std::string> RunStore::migrate(SqliteDb& db, const fs::path& file)
{
    if (auto e = StoreSchema::migrate(db)) {
        if (isCorruption(db.lastErrorCode()))
            return file.string() + ": the database is corrupt (" + *e + ")";
        return file.string() + ": cannot prepare the schema (" + *e + ")";
    }
    return std::nullopt;
}

fs::path RunStore::defaultPath()
{
    const char* xdg = std::getenv("XDG_DATA_HOME");
    fs::path base;
    if (xdg && *xdg && fs::path(xdg).is_absolute()) {
        base = xdg;
    } else {
        const char* home = std::getenv("HOME");
        base = fs::path(home && *home ? home : ".") / ".local" / "share";
    }
    return base / "conclave" / "runs.sqlite";
}

fs::path RunStore::resolvePath(const std::optional<std::string>& dbOption)
{
    if (dbOption && !dbOption->empty())
        return *dbOption;
    const char* env = std::getenv("CONCLAVE_DB");
    if (env && *env)
        return env;
    return defaultPath();
}

RunStore::RunStore(fs::path path, SqliteDb db, SqliteDb::Mode mode, Options options)
    : m_path(std::move(path)), m_db(std::move(db)),
      m_mode(mode == SqliteDb::Mode::Create ? SqliteDb::Mode::ReadWrite : mode), m_options(options)
{
}

// The writer, when recorders no longer hold it, commits what is queued before it stops.
RunStore::~RunStore() = default;

RunId RunStore::newRunId()
{
    // One generator per thread, seeded once: opening the random device for
    // every id cost a served request more than its HTTP parse.
    thread_local std::mt19937_64 rng = [] {
        std::random_device device;
        std::seed_seq seed{device(), device(), device(), device(),
                           uint32_t(std::chrono::steady_clock::now().time_since_epoch().count())};
        return std::mt19937_64(seed);
    }();
    std::ostringstream out;
    out << std::hex << std::setw(16) << std::setfill('0') << rng();
    return RunId(out.str().substr(0, 12));
}

std::optional<std::string> RunStore::refuseWrite() const
{
    if (m_options.access == Access::Read)
        return m_path.string() + ": opened for reading only";
    return std::nullopt;
}

std::shared_ptr<RunStoreWriter> RunStore::startWriter(std::string& error)
{
    if (auto refused = refuseWrite()) {
        error = *refused;
        return nullptr;
    }
    // Recorders and experiments start it from their own threads (the studio's GUI and runner).
    std::lock_guard lock(m_writerMutex);
    if (!m_writer) {
        std::string why;
        m_writer = RunStoreWriter::start(m_path, m_options.writer, why);
        if (!m_writer)
            error = m_path.string() + ": cannot write (" + why + ")";
    }
    return m_writer;
}

std::shared_ptr<RunStoreWriter> RunStore::writer() const
{
    std::lock_guard lock(m_writerMutex);
    return m_writer;
}

std::unique_ptr<RunRecorder> RunStore::record(const Team& team, std::string& error)
{
    return record(team, error, RunOrigin{});
}

std::unique_ptr<RunRecorder> RunStore::record(const Team& team, std::string& error, const std::string& experimentId)
{
    RunOrigin origin;
    if (!experimentId.empty()) {
        origin.source = RunSource::Eval;
        origin.experimentId = experimentId;
    }
    return record(team, error, std::move(origin));
}

std::unique_ptr<RunRecorder> RunStore::record(const Team& team, std::string& error, RunOrigin origin)
{
    auto writer = startWriter(error);
    if (!writer)
        return nullptr;
    return std::make_unique<RunRecorder>(newRunId(), team, std::move(writer), m_options.textCapBytes,
                                         std::move(origin));
}

void RunStore::flush()
{
    if (auto w = writer())
        w->flush();
}

std::unique_ptr<RunQueries> RunStore::openReader(const fs::path& file, std::string& error)
{
    auto opened = openForReading(file);
    if (!opened.store) {
        error = opened.error;
        return nullptr;
    }
    return opened.store->reader(error);
}

std::unique_ptr<RunQueries> RunStore::reader(std::string& error) const
{
    auto queries = RunQueries::open(m_path, m_mode, error);
    if (!queries)
        error = m_path.string() + ": " + error;
    return queries;
}

std::vector<std::string> RunStore::runningWithDeadWriter(std::string_view table)
{
    std::vector<std::string> dead;
    const std::string t(table);
    auto s = m_db.prepare("SELECT id FROM " + t + " WHERE status = 'running' AND " + LiveStatus::writerGone(t));
    while (s.valid() && s.step())
        dead.push_back(s.text(0));
    return dead;
}

int RunStore::recoverInterrupted()
{
    const auto dead = runningWithDeadWriter("runs");
    if (dead.empty() || m_db.exec("BEGIN IMMEDIATE"))
        return 0;
    // Totals from what was committed, so the run reads back as far as it got.
    auto update = m_db.prepare(
        "UPDATE runs SET status = 'interrupted', "
        "wall_us = coalesce((SELECT max(coalesce(end_us, start_us)) FROM spans WHERE run_id = ?1), 0), "
        "tokens_in = coalesce((SELECT sum(tokens_in) FROM spans WHERE run_id = ?1 AND kind = 'attempt'), 0), "
        "tokens_out = coalesce((SELECT sum(tokens_out) FROM spans WHERE run_id = ?1 AND kind = 'attempt'), 0), "
        "cost_usd = coalesce((SELECT sum(cost_usd) FROM spans WHERE run_id = ?1 AND kind = 'attempt'), 0), "
        "calls = (SELECT count(*) FROM spans WHERE run_id = ?1 AND kind = 'attempt') "
        "WHERE id = ?1 AND status = 'running'");
    auto setEnd = m_db.prepare("UPDATE runs SET ended_at_ms = started_at_ms + wall_us / 1000 WHERE id = ?1");
    int count = 0;
    for (const auto& id : dead) {
        update.bind(1, std::string_view(id));
        update.step();
        count += int(m_db.changes());
        update.reset();
        setEnd.bind(1, std::string_view(id));
        setEnd.step();
        setEnd.reset();
    }
    if (m_db.exec("COMMIT")) {
        m_db.exec("ROLLBACK");
        return 0;
    }
    return count;
}

RunStore::Deleted RunStore::remove(const std::vector<RunId>& ids)
{
    if (auto refused = refuseWrite())
        return {0, *refused};
    std::vector<std::string> raw;
    auto owner = m_db.prepare("SELECT experiment_id FROM runs WHERE id = ?1 AND experiment_id IS NOT NULL");
    for (const auto& id : ids) {
        owner.bind(1, std::string_view(id.str()));
        if (owner.step()) {
            const auto experiment = owner.text(0);
            return {0, "run " + id.str() + " belongs to experiment " + experiment +
                           "; delete the experiment instead (conclave experiments delete " + experiment + ")"};
        }
        if (!owner.error().empty())
            return {0, m_path.string() + ": " + owner.error()};
        owner.reset();
        raw.push_back(id.str());
    }
    return removeWhere(raw);
}

RunStore::Deleted RunStore::prune(int keep)
{
    return pruneWhere(std::nullopt, keep);
}

RunStore::Deleted RunStore::pruneSource(RunSource source, int keep)
{
    return pruneWhere(source, keep);
}

RunStore::Deleted RunStore::pruneWhere(std::optional<RunSource> source, int keep)
{
    if (auto refused = refuseWrite())
        return {0, *refused};
    std::vector<std::string> ids;
    auto s =
        m_db.prepare(std::string("SELECT id FROM runs WHERE status != 'running' AND experiment_id IS NULL") +
                     (source ? " AND source = ?2" : "") + " ORDER BY started_at_ms DESC, id DESC LIMIT -1 OFFSET ?1");
    s.bind(1, int64_t(std::max(keep, 0)));
    if (source)
        s.bind(2, toString(*source));
    while (s.step())
        ids.push_back(s.text(0));
    if (!s.error().empty())
        return {0, m_path.string() + ": " + s.error()};
    return removeWhere(ids);
}

RunStore::Deleted RunStore::removeWhere(const std::vector<std::string>& ids)
{
    if (ids.empty())
        return {};
    if (auto e = m_db.exec("BEGIN IMMEDIATE"))
        return {0, m_path.string() + ": " + *e};
    int count = 0;
    for (const char* sql : {"DELETE FROM spans WHERE run_id = ?1", "DELETE FROM span_text WHERE run_id = ?1",
                            "DELETE FROM node_results WHERE run_id = ?1", "DELETE FROM runs WHERE id = ?1"}) {
        auto s = m_db.prepare(sql);
        const bool runs = std::string_view(sql).find("FROM runs") != std::string_view::npos;
        for (const auto& id : ids) {
            s.bind(1, std::string_view(id));
            s.step();
            if (!s.error().empty()) {
                const auto error = s.error();
                m_db.exec("ROLLBACK");
                return {0, m_path.string() + ": " + error};
            }
            if (runs)
                count += int(m_db.changes());
            s.reset();
        }
    }
    if (auto e = m_db.exec("COMMIT")) {
        m_db.exec("ROLLBACK");
        return {0, m_path.string() + ": " + *e};
    }
    return {count, {}};
}

} // namespace conclave
