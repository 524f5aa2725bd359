#include "conclave/store/RunQueries.h"

#include "conclave/io/JsonText.h"
#include "conclave/store/LiveStatus.h"

#include <nlohmann/json.hpp>

#include <array>

namespace conclave {

namespace {

// readSummary reads these (from `runs`); a query that wants more puts them after, from kSummaryColumnCount.
// The status is as it is now: a run whose writer is gone reads as interrupted.
constexpr int kSummaryColumnCount = 20;
const std::string& summaryColumns()
{
    static const std::string columns =
        "id, team_name, " + LiveStatus::status("runs") +
        ", started_at_ms, ended_at_ms, input, seed, wall_us, critical_path_us, tokens_in, "
        "tokens_out, cost_usd, calls, answer, clock, cpu_us, experiment_id, source, team_hash, key_name";
    return columns;
}

RunSummary readSummary(const SqliteStatement& s)
{
    RunSummary r;
    r.id = RunId(s.text(0));
    r.teamName = s.text(1);
    r.status = runStatusFromString(s.textView(2)).value_or(RunStatus::Failed);
    r.startedAtMs = s.int64(3);
    r.endedAtMs = s.isNull(4) ? -1 : s.int64(4);
    r.input = s.text(5);
    r.seed = uint64_t(s.int64(6));
    r.wallUs = s.int64(7);
    r.criticalPathUs = s.int64(8);
    r.tokensIn = s.int64(9);
    r.tokensOut = s.int64(10);
    r.costUsd = s.real(11);
    r.calls = int(s.int64(12));
    r.answer = s.text(13);
    r.clock = clockKindFromString(s.textView(14)).value_or(ClockKind::Real);
    r.cpuUs = s.int64(15);
    r.experimentId = s.text(16);
    r.source = runSourceFromString(s.textView(17)).value_or(RunSource::Run);
    r.teamHash = s.text(18);
    r.keyName = s.text(19);
    return r;
}

// The WHERE clause of a filter: ?1 team, ?2 status, ?3 text, ?4 source, ?5 start (see bindFilter).
std::string whereClause(const RunFilter& filter)
{
    std::string sql = " WHERE 1";
    // Asking for experiments' runs by their source shows them.
    if (!filter.includeTrials && filter.source != RunSource::Eval)
        sql += " AND experiment_id IS NULL";
    if (filter.source)
        sql += " AND source = ?4";
    if (filter.startedSinceMs)
        sql += " AND started_at_ms >= ?5";
    if (!filter.team.empty())
        sql += " AND team_name = ?1";
    if (filter.status)
        sql += " AND " + LiveStatus::status("runs") + " = ?2";
    // SQLite's lower() folds ASCII only; the needle is folded the same way.
    if (!filter.text.empty())
        sql += " AND (instr(lower(id), ?3) OR instr(lower(team_name), ?3) OR instr(lower(input), ?3)"
               " OR instr(lower(coalesce(answer, '')), ?3))";
    return sql;
}

void bindFilter(SqliteStatement& s, const RunFilter& filter, std::string& folded)
{
    if (!filter.team.empty())
        s.bind(1, std::string_view(filter.team));
    if (filter.status)
        s.bind(2, toString(*filter.status));
    if (filter.source)
        s.bind(4, toString(*filter.source));
    if (filter.startedSinceMs)
        s.bind(5, *filter.startedSinceMs);
    if (!filter.text.empty()) {
        folded = filter.text;
        for (auto& c : folded) {
            if (c >= 'A' && c <= 'Z')
                c = char(c - 'A' + 'a');
        }
        s.bind(3, std::string_view(folded));
    }
}

} // namespace

std::string RunQueries::spanColumns(std::string_view alias)
{
    static constexpr std::array<std::string_view, 21> kColumns{
        "id",      "parent",     "node",  "kind",  "name",      "start_us",   "end_us",
        "status",  "attempt",    "round", "model", "tokens_in", "tokens_out", "cost_usd",
        "ttft_us", "planned_ms", "error", "note",  "inflight",  "wait_us",    "draw"};
    std::string out;
    for (const auto column : kColumns)
        out += (out.empty() ? "" : ", ") + std::string(alias) + std::string(column);
    return out;
}

Span RunQueries::readSpan(const SqliteStatement& s, int first)
{
    const auto at = [first](int column) { return first + column; };
    Span sp;
    sp.id = SpanId(s.int64(at(0)));
    sp.parent = s.isNull(at(1)) ? 0 : SpanId(s.int64(at(1)));
    sp.node = NodeId(s.text(at(2)));
    sp.kind = spanKindFromString(s.textView(at(3))).value_or(SpanKind::Node);
    sp.name = s.text(at(4));
    sp.startUs = s.int64(at(5));
    sp.endUs = s.isNull(at(6)) ? -1 : s.int64(at(6));
    sp.status = statusFromString(s.textView(at(7))).value_or(Status::Running);
    sp.attempt = int(s.int64(at(8)));
    sp.round = int(s.int64(at(9)));
    sp.model = s.text(at(10));
    sp.tokensIn = s.int64(at(11));
    sp.tokensOut = s.int64(at(12));
    sp.costUsd = s.real(at(13));
    sp.ttftUs = s.isNull(at(14)) ? -1 : s.int64(at(14));
    sp.plannedMs = s.real(at(15));
    sp.error = s.text(at(16));
    sp.note = s.text(at(17));
    sp.inflight = s.isNull(at(18)) ? 0 : s.int64(at(18));
    sp.waitUs = s.isNull(at(19)) ? -1 : s.int64(at(19));
    sp.draw = s.text(at(20));
    return sp;
}

std::unique_ptr<RunQueries> RunQueries::open(const std::filesystem::path& file, std::string& error)
{
    return open(file, SqliteDb::Mode::ReadWrite, error);
}

std::unique_ptr<RunQueries> RunQueries::open(const std::filesystem::path& file, SqliteDb::Mode mode, std::string& error)
{
    SqliteDb db;
    if (auto e = db.open(file, mode == SqliteDb::Mode::Create ? SqliteDb::Mode::ReadWrite : mode)) {
        error = *e;
        return nullptr;
    }
    if (!LiveStatus::define(db)) {
        error = db.lastError();
        return nullptr;
    }
    return std::unique_ptr<RunQueries>(new RunQueries(std::move(db)));
}

bool RunQueries::begin(std::string& error)
{
    if (auto e = m_db.exec("BEGIN")) {
        error = *e;
        return false;
    }
    return true;
}

void RunQueries::end()
{
    m_db.exec("COMMIT");
}

std::optional<std::vector<RunSummary>> RunQueries::list(const RunFilter& filter, std::string& error)
{
    std::string sql = "SELECT " + summaryColumns() + " FROM runs" + whereClause(filter);
    sql += " ORDER BY started_at_ms DESC, rowid DESC";
    if (filter.limit > 0 || filter.offset > 0)
        sql += " LIMIT " + std::to_string(filter.limit > 0 ? filter.limit : -1);
    if (filter.offset > 0)
        sql += " OFFSET " + std::to_string(filter.offset);
    auto s = m_db.prepare(sql);
    if (!s.valid()) {
        error = m_db.lastError();
        return std::nullopt;
    }
    std::string folded; // bound by reference: lives until the statement is done
    bindFilter(s, filter, folded);
    std::vector<RunSummary> runs;
    while (s.step())
        runs.push_back(readSummary(s));
    if (!s.error().empty()) {
        error = s.error();
        return std::nullopt;
    }
    return runs;
}

std::optional<int64_t> RunQueries::count(const RunFilter& filter, std::string& error)
{
    auto s = m_db.prepare("SELECT count(*) FROM runs" + whereClause(filter));
    if (!s.valid()) {
        error = m_db.lastError();
        return std::nullopt;
    }
    std::string folded;
    bindFilter(s, filter, folded);
    if (!s.step()) {
        error = s.error().empty() ? "count: no row" : s.error();
        return std::nullopt;
    }
    return s.int64(0);
}

std::optional<std::vector<std::string>> RunQueries::teamNames(std::string& error)
{
    auto s = m_db.prepare("SELECT DISTINCT team_name FROM runs ORDER BY team_name");
    if (!s.valid()) {
        error = m_db.lastError();
        return std::nullopt;
    }
    std::vector<std::string> names;
    while (s.step())
        names.push_back(s.text(0));
    if (!s.error().empty()) {
        error = s.error();
        return std::nullopt;
    }
    return names;
}

std::optional<RunId> RunQueries::resolve(const std::string& idOrPrefix, std::string& error)
{
    auto s = m_db.prepare("SELECT id FROM runs WHERE substr(id, 1, length(?1)) = ?1 ORDER BY id = ?1 DESC LIMIT 2");
    s.bind(1, std::string_view(idOrPrefix));
    std::vector<std::string> found;
    while (s.step())
        found.push_back(s.text(0));
    if (!s.error().empty()) {
        error = s.error();
        return std::nullopt;
    }
    if (idOrPrefix.empty() || found.empty()) {
        error = "no run \"" + idOrPrefix + "\"";
        return std::nullopt;
    }
    if (found.size() > 1 && found.front() != idOrPrefix) {
        error = "\"" + idOrPrefix + "\" names more than one run; give more of the id";
        return std::nullopt;
    }
    return RunId(found.front());
}

std::optional<double> RunQueries::serveSpendSince(const std::string& keyName, int64_t sinceMs, std::string& error)
{
    // A run's row gets its totals when it ends (or is marked interrupted); until then its
    // committed attempts say what it has spent.
    auto s =
        m_db.prepare("SELECT coalesce(sum(CASE WHEN r.ended_at_ms IS NULL THEN "
                     "(SELECT coalesce(sum(s.cost_usd), 0) FROM spans s WHERE s.run_id = r.id AND s.kind = 'attempt') "
                     "ELSE r.cost_usd END), 0) FROM runs r "
                     "WHERE r.source = ?3 AND r.started_at_ms >= ?2 AND r.key_name = ?1");
    if (!s.valid()) {
        error = m_db.lastError();
        return std::nullopt;
    }
    s.bind(1, std::string_view(keyName)).bind(2, sinceMs).bind(3, toString(RunSource::Serve));
    if (!s.step()) {
        error = s.error().empty() ? "serve spend: no row" : s.error();
        return std::nullopt;
    }
    return s.real(0);
}

std::optional<StoredRun> RunQueries::load(const RunId& id, bool withText, std::string& error)
{
    if (!begin(error))
        return std::nullopt;
    StoredRun run;
    auto s = m_db.prepare(
        "SELECT " + summaryColumns() +
        ", team_json, output, confidence, output_error, critical_path, output_status FROM runs WHERE id = ?1");
    s.bind(1, std::string_view(id.str()));
    if (!s.step()) {
        error = s.error().empty() ? "no run \"" + id.str() + "\"" : s.error();
        end();
        return std::nullopt;
    }
    run.summary = readSummary(s);
    constexpr int more = kSummaryColumnCount;
    run.teamJson = s.text(more);
    run.output.text = s.text(more + 1);
    run.output.answer = run.summary.answer;
    run.output.confidence = s.real(more + 2);
    run.output.error = s.text(more + 3);
    run.output.status = statusFromString(s.textView(more + 5)).value_or(Status::Running);
    const auto path = parseJsonQuietly(s.textView(more + 4));
    if (path.is_array()) {
        for (const auto& node : path) {
            if (node.is_string())
                run.criticalPath.emplace_back(node.get<std::string>());
        }
    }

    auto spans = m_db.prepare("SELECT " + spanColumns("") + " FROM spans WHERE run_id = ?1 ORDER BY id");
    spans.bind(1, std::string_view(id.str()));
    while (spans.step()) {
        Span sp = readSpan(spans, 0);
        run.spans.push_back(std::move(sp));
    }

    auto nodes = m_db.prepare("SELECT node, status, text, answer, confidence, tokens_in, tokens_out, cost_usd, "
                              "error, queued_us, finished_us, skipped_model, agreed FROM node_results "
                              "WHERE run_id = ?1 ORDER BY rowid");
    nodes.bind(1, std::string_view(id.str()));
    while (nodes.step()) {
        StoredNode n;
        n.node = NodeId(nodes.text(0));
        n.result.status = statusFromString(nodes.textView(1)).value_or(Status::Failed);
        n.result.text = nodes.text(2);
        n.result.answer = nodes.text(3);
        n.result.confidence = nodes.real(4);
        n.result.tokensIn = nodes.int64(5);
        n.result.tokensOut = nodes.int64(6);
        n.result.costUsd = nodes.real(7);
        n.result.error = nodes.text(8);
        n.queuedUs = nodes.isNull(9) ? -1 : nodes.int64(9);
        n.finishedUs = nodes.isNull(10) ? -1 : nodes.int64(10);
        n.result.skippedModel = nodes.text(11);
        if (const auto agreed = parseJsonQuietly(nodes.textView(12)); agreed.is_array()) {
            for (const auto& source : agreed) {
                if (source.is_string())
                    n.result.agreed.push_back(source.get<std::string>());
            }
        }
        run.nodes.push_back(std::move(n));
    }
    if (withText) {
        auto texts = m_db.prepare("SELECT span_id, text FROM span_text WHERE run_id = ?1");
        texts.bind(1, std::string_view(id.str()));
        while (texts.step())
            run.texts.emplace(SpanId(texts.int64(0)), texts.text(1));
    }
    const auto failure = !spans.error().empty() ? spans.error() : nodes.error();
    end();
    if (!failure.empty()) {
        error = failure;
        return std::nullopt;
    }
    return run;
}

} // namespace conclave
