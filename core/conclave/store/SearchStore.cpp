#include "conclave/store/SearchStore.h"

#include "conclave/store/LiveStatus.h"
#include "conclave/store/ProcessIdentity.h"
#include "conclave/store/RunStore.h"

#include <chrono>

namespace conclave {

namespace {

int64_t nowMs()
{
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

const std::string& searchColumns()
{
    static const std::string columns =
        "id, name, " + LiveStatus::status("searches") +
        ", spec_json, command, report_json, note, trials, seconds, started_at_ms, ended_at_ms, "
        "(SELECT count(*) FROM search_candidates c WHERE c.search_id = searches.id), "
        "(SELECT count(*) FROM search_candidates c WHERE c.search_id = searches.id AND c.status = 'front')";
    return columns;
}

SearchRecord searchFrom(const SqliteStatement& s)
{
    SearchRecord r;
    r.id = s.text(0);
    r.name = s.text(1);
    r.status = s.text(2);
    r.specJson = s.text(3);
    r.command = s.text(4);
    r.reportJson = s.text(5);
    r.note = s.text(6);
    r.trials = s.int64(7);
    r.seconds = s.real(8);
    r.startedAtMs = s.int64(9);
    r.endedAtMs = s.isNull(10) ? -1 : s.int64(10);
    r.candidates = s.int64(11);
    r.front = s.int64(12);
    if (r.status == "interrupted" && r.note.empty())
        r.note = std::string(LiveStatus::kInterruptedNote);
    return r;
}

} // namespace

std::unique_ptr<SearchStore> SearchStore::open(const std::filesystem::path& file, bool forWriting, std::string& error)
{
    auto opened = forWriting ? RunStore::open(file) : RunStore::openForReading(file);
    if (!opened.store) {
        error = opened.error;
        return nullptr;
    }
    std::unique_ptr<SearchStore> store(new SearchStore());
    store->m_path = file;
    store->m_writable = forWriting;
    if (auto e = store->m_db.open(file, forWriting ? SqliteDb::Mode::ReadWrite : SqliteDb::Mode::ReadOnly)) {
        error = file.string() + ": " + *e;
        return nullptr;
    }
    if (!LiveStatus::define(store->m_db)) {
        error = file.string() + ": " + store->m_db.lastError();
        return nullptr;
    }
    store->m_runStore = std::move(opened.store);
    return store;
}

SearchStore::~SearchStore() = default;

std::optional<std::string> SearchStore::inTransaction(const std::function<bool()>& write)
{
    if (auto refused = refuseWrite())
        return refused;
    if (auto e = m_db.exec("BEGIN IMMEDIATE"))
        return m_path.string() + ": " + *e;
    if (!write()) {
        const auto error = m_db.lastError();
        m_db.exec("ROLLBACK");
        return m_path.string() + ": " + error;
    }
    if (auto e = m_db.exec("COMMIT")) {
        m_db.exec("ROLLBACK");
        return m_path.string() + ": " + *e;
    }
    return std::nullopt;
}

std::optional<std::string> SearchStore::refuseWrite() const
{
    if (!m_writable)
        return m_path.string() + ": opened for reading only";
    return std::nullopt;
}

std::optional<std::string> SearchStore::begin(const SearchRecord& search)
{
    if (auto refused = refuseWrite())
        return refused;
    const auto me = ProcessIdentity::current();
    auto s = m_db.prepare(
        "INSERT INTO searches (id, name, status, spec_json, command, started_at_ms, host, pid, pid_start) "
        "VALUES (?1, ?2, 'running', ?3, ?4, ?5, ?6, ?7, ?8) "
        "ON CONFLICT(id) DO UPDATE SET status = 'running', ended_at_ms = NULL, note = '', command = ?4, "
        "host = ?6, pid = ?7, pid_start = ?8");
    s.bind(1, std::string_view(search.id))
        .bind(2, std::string_view(search.name))
        .bind(3, std::string_view(search.specJson))
        .bind(4, std::string_view(search.command))
        .bind(5, search.startedAtMs > 0 ? search.startedAtMs : nowMs())
        .bind(6, std::string_view(me.host))
        .bind(7, me.pid)
        .bind(8, me.startTime);
    if (!s.execute())
        return m_path.string() + ": " + m_db.lastError();
    return std::nullopt;
}

std::optional<std::string> SearchStore::saveCandidates(const std::string& searchId,
                                                       const std::vector<SearchCandidateRow>& rows)
{
    return inTransaction([&] {
        auto s = m_db.prepare("INSERT OR REPLACE INTO search_candidates (search_id, candidate, key, name, team_json, "
                              "parameters_json, generation, rung, status, dropped_by, why) "
                              "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)");
        for (const auto& r : rows) {
            s.bind(1, std::string_view(searchId))
                .bind(2, int64_t(r.candidate))
                .bind(3, std::string_view(r.key))
                .bind(4, std::string_view(r.name))
                .bind(5, std::string_view(r.teamJson))
                .bind(6, std::string_view(r.parametersJson))
                .bind(7, int64_t(r.generation))
                .bind(8, int64_t(r.rung))
                .bind(9, std::string_view(r.status));
            if (r.droppedBy > 0)
                s.bind(10, int64_t(r.droppedBy));
            else
                s.bindNull(10);
            s.bind(11, std::string_view(r.why));
            if (!s.execute())
                return false;
        }
        return true;
    });
}

std::optional<std::string> SearchStore::addTrials(const std::string& searchId, const std::vector<SearchTrialRow>& rows)
{
    return inTransaction([&] {
        auto s = m_db.prepare("INSERT OR REPLACE INTO search_trials (search_id, candidate, part, task, seed, scored, "
                              "correct, failed, wall_us, cost_usd, tokens, calls) "
                              "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)");
        for (const auto& r : rows) {
            s.bind(1, std::string_view(searchId))
                .bind(2, int64_t(r.candidate))
                .bind(3, std::string_view(r.part))
                .bind(4, std::string_view(r.task))
                .bind(5, int64_t(r.seed))
                .bind(6, int64_t(r.scored))
                .bind(7, int64_t(r.correct))
                .bind(8, int64_t(r.failed))
                .bind(9, r.wallUs)
                .bind(10, r.costUsd)
                .bind(11, r.tokens)
                .bind(12, r.calls);
            if (!s.execute())
                return false;
        }
        return true;
    });
}

std::optional<std::string> SearchStore::end(const std::string& searchId, const std::string& status,
                                            const std::string& note, const std::string& reportJson, int64_t trials,
                                            double seconds)
{
    if (auto refused = refuseWrite())
        return refused;
    auto s = m_db.prepare("UPDATE searches SET status = ?2, note = ?3, report_json = ?4, trials = ?5, seconds = ?6, "
                          "ended_at_ms = ?7 WHERE id = ?1");
    s.bind(1, std::string_view(searchId))
        .bind(2, std::string_view(status))
        .bind(3, std::string_view(note))
        .bind(4, std::string_view(reportJson))
        .bind(5, trials)
        .bind(6, seconds)
        .bind(7, nowMs());
    if (!s.execute())
        return m_path.string() + ": " + m_db.lastError();
    return std::nullopt;
}

std::optional<std::vector<SearchRecord>> SearchStore::list(std::string& error)
{
    auto s = m_db.prepare("SELECT " + searchColumns() + " FROM searches ORDER BY started_at_ms DESC, id DESC");
    std::vector<SearchRecord> out;
    while (s.step())
        out.push_back(searchFrom(s));
    if (!s.error().empty()) {
        error = m_path.string() + ": " + s.error();
        return std::nullopt;
    }
    return out;
}

std::optional<SearchRecord> SearchStore::search(const std::string& idOrPrefix, std::string& error)
{
    auto s = m_db.prepare("SELECT " + searchColumns() +
                          " FROM searches WHERE substr(id, 1, length(?1)) = ?1 ORDER BY id = ?1 DESC LIMIT 2");
    s.bind(1, std::string_view(idOrPrefix));
    std::vector<SearchRecord> found;
    while (s.step())
        found.push_back(searchFrom(s));
    if (!s.error().empty()) {
        error = m_path.string() + ": " + s.error();
        return std::nullopt;
    }
    if (idOrPrefix.empty() || found.empty()) {
        error = "no search \"" + idOrPrefix + "\"";
        return std::nullopt;
    }
    if (found.size() > 1 && found.front().id != idOrPrefix) {
        error = "search prefix \"" + idOrPrefix + "\" is ambiguous";
        return std::nullopt;
    }
    return found.front();
}

std::optional<std::vector<SearchCandidateRow>> SearchStore::candidates(const std::string& searchId,
                                                                       std::string& error)
{
    auto s = m_db.prepare("SELECT candidate, key, name, team_json, parameters_json, generation, rung, status, "
                          "dropped_by, why FROM search_candidates WHERE search_id = ?1 ORDER BY candidate");
    s.bind(1, std::string_view(searchId));
    std::vector<SearchCandidateRow> out;
    while (s.step()) {
        SearchCandidateRow r;
        r.candidate = int(s.int64(0));
        r.key = s.text(1);
        r.name = s.text(2);
        r.teamJson = s.text(3);
        r.parametersJson = s.text(4);
        r.generation = int(s.int64(5));
        r.rung = int(s.int64(6));
        r.status = s.text(7);
        r.droppedBy = s.isNull(8) ? 0 : int(s.int64(8));
        r.why = s.text(9);
        out.push_back(std::move(r));
    }
    if (!s.error().empty()) {
        error = m_path.string() + ": " + s.error();
        return std::nullopt;
    }
    return out;
}

std::optional<std::vector<SearchTrialRow>> SearchStore::trials(const std::string& searchId, std::string& error)
{
    auto s = m_db.prepare("SELECT candidate, part, task, seed, scored, correct, failed, wall_us, cost_usd, tokens, "
                          "calls FROM search_trials WHERE search_id = ?1 ORDER BY candidate, part, task, seed");
    s.bind(1, std::string_view(searchId));
    std::vector<SearchTrialRow> out;
    while (s.step()) {
        SearchTrialRow r;
        r.candidate = int(s.int64(0));
        r.part = s.text(1);
        r.task = s.text(2);
        r.seed = uint64_t(s.int64(3));
        r.scored = s.int64(4) != 0;
        r.correct = s.int64(5) != 0;
        r.failed = s.int64(6) != 0;
        r.wallUs = s.int64(7);
        r.costUsd = s.real(8);
        r.tokens = s.int64(9);
        r.calls = s.int64(10);
        out.push_back(std::move(r));
    }
    if (!s.error().empty()) {
        error = m_path.string() + ": " + s.error();
        return std::nullopt;
    }
    return out;
}

SearchStore::Deleted SearchStore::remove(const std::string& searchId)
{
    if (auto refused = refuseWrite())
        return {0, *refused};
    const auto sqlError = [&](const std::string& error) {
        m_db.exec("ROLLBACK");
        return Deleted{0, m_path.string() + ": " + error};
    };
    if (auto e = m_db.exec("BEGIN IMMEDIATE"))
        return {0, m_path.string() + ": " + *e};
    {
        auto owner = m_db.prepare("SELECT status, host, pid, pid_start FROM searches WHERE id = ?1");
        owner.bind(1, std::string_view(searchId));
        const bool found = owner.step();
        if (!owner.error().empty())
            return sqlError(owner.error());
        if (!found) {
            m_db.exec("ROLLBACK");
            return {0, "no search \"" + searchId + "\""};
        }
        if (owner.textView(0) == "running" &&
            ProcessIdentity{owner.text(1), owner.int64(2), owner.int64(3)}.alive()) {
            m_db.exec("ROLLBACK");
            return {0, "search " + searchId + " is still running (process " + std::to_string(owner.int64(2)) +
                           " on " + owner.text(1) + "); stop it before deleting it"};
        }
    }
    int64_t candidates = 0;
    for (const char* sql : {"DELETE FROM search_candidates WHERE search_id = ?1",
                            "DELETE FROM search_trials WHERE search_id = ?1", "DELETE FROM searches WHERE id = ?1"}) {
        auto s = m_db.prepare(sql);
        s.bind(1, std::string_view(searchId));
        if (!s.execute())
            return sqlError(m_db.lastError());
        if (std::string_view(sql).find("search_candidates") != std::string_view::npos)
            candidates = m_db.changes();
    }
    if (auto e = m_db.exec("COMMIT"))
        return sqlError(*e);
    return {candidates, {}};
}

} // namespace conclave
