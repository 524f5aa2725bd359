#include "conclave/store/RunStoreWriter.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <sys/resource.h>
#include <unistd.h>
#include <unordered_set>

namespace conclave {

namespace {

constexpr std::string_view kUpsertSpan =
    "INSERT INTO spans (run_id, id, parent, node, kind, name, start_us, end_us, status, attempt, round, model, "
    "tokens_in, tokens_out, cost_usd, ttft_us, planned_ms, error) "
    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18) "
    "ON CONFLICT (run_id, id) DO UPDATE SET end_us = excluded.end_us, status = excluded.status, "
    "model = excluded.model, tokens_in = excluded.tokens_in, tokens_out = excluded.tokens_out, "
    "cost_usd = excluded.cost_usd, ttft_us = excluded.ttft_us, planned_ms = excluded.planned_ms, "
    "error = excluded.error";

void bindOptionalText(SqliteStatement& s, int index, const std::string& text)
{
    if (text.empty())
        s.bindNull(index);
    else
        s.bind(index, std::string_view(text));
}

} // namespace

std::unique_ptr<RunStoreWriter> RunStoreWriter::start(const std::filesystem::path& file, Options options,
                                                      std::string& error)
{
    SqliteDb db;
    if (auto e = db.open(file, SqliteDb::Mode::ReadWrite)) {
        error = *e;
        return nullptr;
    }
    // The writer checkpoints itself, between runs, rather than in the middle of a batch.
    if (auto e = db.exec("PRAGMA synchronous = NORMAL; PRAGMA wal_autocheckpoint = 0; PRAGMA cache_size = -32000")) {
        error = *e;
        return nullptr;
    }
    std::unique_ptr<RunStoreWriter> writer(new RunStoreWriter(std::move(db), options));
    if (!writer->m_insertRun.valid() || !writer->m_upsertSpan.valid() || !writer->m_insertText.valid() ||
        !writer->m_insertNode.valid() || !writer->m_endRun.valid()) {
        error = writer->m_db.lastError();
        return nullptr;
    }
    writer->m_thread = std::thread([w = writer.get()] { w->loop(); });
    return writer;
}

RunStoreWriter::RunStoreWriter(SqliteDb db, Options options) : m_db(std::move(db)), m_options(options)
{
    m_insertRun = m_db.prepare("INSERT INTO runs (id, team_name, team_json, input, seed, status, started_at_ms, "
                               "host, pid, pid_start) VALUES (?1, ?2, ?3, ?4, ?5, 'running', ?6, ?7, ?8, ?9)");
    m_upsertSpan = m_db.prepare(kUpsertSpan);
    m_insertText =
        m_db.prepare("INSERT OR REPLACE INTO span_text (run_id, span_id, text, truncated) VALUES (?1, ?2, ?3, ?4)");
    m_insertNode = m_db.prepare("INSERT OR REPLACE INTO node_results (run_id, node, status, text, answer, "
                                "confidence, tokens_in, tokens_out, cost_usd, error, queued_us, finished_us) "
                                "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)");
    m_endRun = m_db.prepare("UPDATE runs SET status = ?2, ended_at_ms = ?3, output = ?4, answer = ?5, "
                            "confidence = ?6, output_error = ?7, wall_us = ?8, critical_path_us = ?9, "
                            "critical_path = ?10, tokens_in = ?11, tokens_out = ?12, cost_usd = ?13, calls = ?14, "
                            "output_status = ?15 "
                            "WHERE id = ?1");
}

RunStoreWriter::~RunStoreWriter()
{
    {
        std::lock_guard lock(m_mutex);
        m_stop = true;
    }
    m_wake.notify_all();
    if (m_thread.joinable())
        m_thread.join();
}

void RunStoreWriter::push(WriteOp op)
{
    std::lock_guard lock(m_mutex);
    m_queue.push_back(std::move(op));
    ++m_pushed;
    // Wake the writer only when a batch starts or fills: one notify per batch, not per event.
    if (m_queue.size() == 1 || m_queue.size() == m_options.maxBatch)
        m_wake.notify_one();
}

void RunStoreWriter::flush()
{
    std::unique_lock lock(m_mutex);
    const auto target = m_pushed;
    m_flushWanted = true;
    m_wake.notify_one();
    m_committedCv.wait(lock, [&] { return m_committed >= target; });
}

std::shared_ptr<WriteProgress> RunStoreWriter::track(const std::string& run)
{
    std::lock_guard lock(m_mutex);
    auto& p = m_progress[run];
    if (!p)
        p = std::make_shared<WriteProgress>();
    return p;
}

void RunStoreWriter::untrack(const std::string& run)
{
    std::lock_guard lock(m_mutex);
    m_progress.erase(run);
}

std::string RunStoreWriter::error() const
{
    std::lock_guard lock(m_mutex);
    return m_error;
}

void RunStoreWriter::loop()
{
    if (m_options.lowPriority)
        setpriority(PRIO_PROCESS, id_t(::gettid()), 10);
    std::vector<WriteOp> batch;
    std::unique_lock lock(m_mutex);
    for (;;) {
        m_wake.wait(lock, [&] { return m_stop || !m_queue.empty(); });
        if (m_queue.empty() && m_stop)
            break;
        const auto deadline = std::chrono::steady_clock::now() + m_options.maxDelay;
        m_wake.wait_until(lock, deadline,
                          [&] { return m_stop || m_flushWanted || m_queue.size() >= m_options.maxBatch; });
        batch.swap(m_queue);
        m_flushWanted = false;
        lock.unlock();
        write(batch);
        lock.lock();
        m_committed += batch.size();
        batch.clear();
        m_committedCv.notify_all();
        if (m_checkpointDue && m_queue.empty()) {
            // After the waiters are released, and only when nothing is queued.
            // PASSIVE never waits for readers; what it cannot copy now, a later one will.
            lock.unlock();
            m_db.exec("PRAGMA wal_checkpoint(PASSIVE)");
            m_checkpointDue = false;
            m_sinceCheckpoint = 0;
            lock.lock();
        }
    }
}

void RunStoreWriter::write(std::vector<WriteOp>& batch)
{
    const bool durable = std::any_of(batch.begin(), batch.end(),
                                     [](const WriteOp& op) { return std::holds_alternative<write_op::RunEnd>(op); });
    if (durable)
        m_db.exec("PRAGMA synchronous = FULL");
    std::string failure;
    if (auto e = m_db.exec("BEGIN IMMEDIATE")) {
        failure = *e;
    } else if (!writeAll(batch)) {
        failure = m_db.lastError();
        m_db.exec("ROLLBACK");
    } else if (auto c = m_db.exec("COMMIT")) {
        failure = *c;
        m_db.exec("ROLLBACK");
    }
    if (durable)
        m_db.exec("PRAGMA synchronous = NORMAL");
    if (!failure.empty()) {
        std::lock_guard lock(m_mutex);
        if (m_error.empty())
            m_error = failure;
        return;
    }
    noteProgress(batch);
    m_sinceCheckpoint += batch.size();
    if (durable || m_sinceCheckpoint >= m_options.checkpointEvery)
        m_checkpointDue = true;
}

bool RunStoreWriter::writeAll(std::vector<WriteOp>& batch)
{
    // A span started and finished within one batch is written once, in its final state.
    // Keyed by (run index in this batch, span id); a batch rarely holds more than a few runs.
    std::vector<const std::string*> runs;
    const auto runIndex = [&runs](const std::string& run) {
        for (size_t i = 0; i < runs.size(); ++i) {
            if (*runs[i] == run)
                return uint64_t(i);
        }
        runs.push_back(&run);
        return uint64_t(runs.size() - 1);
    };
    std::unordered_set<uint64_t> finishedHere;
    finishedHere.reserve(batch.size());
    for (const auto& op : batch) {
        if (const auto* s = std::get_if<write_op::SpanRow>(&op); s && s->finished)
            finishedHere.insert(runIndex(s->run) << 48 | s->span.id);
    }
    for (auto& op : batch) {
        bool ok = true;
        if (auto* b = std::get_if<write_op::RunBegin>(&op)) {
            auto& s = m_insertRun;
            s.bind(1, std::string_view(b->run)).bind(2, std::string_view(b->teamName));
            s.bind(3, std::string_view(b->teamJson)).bind(4, std::string_view(b->input));
            s.bind(5, int64_t(b->seed)).bind(6, b->startedAtMs).bind(7, std::string_view(b->host));
            s.bind(8, b->pid).bind(9, b->pidStart);
            s.step();
            ok = s.errorCode() == 0;
            s.reset();
        } else if (auto* r = std::get_if<write_op::SpanRow>(&op)) {
            if (!r->finished && !finishedHere.empty() && finishedHere.count(runIndex(r->run) << 48 | r->span.id))
                continue;
            const auto& sp = r->span;
            auto& s = m_upsertSpan;
            s.bind(1, std::string_view(r->run)).bind(2, int64_t(sp.id));
            if (sp.parent)
                s.bind(3, int64_t(sp.parent));
            else
                s.bindNull(3);
            s.bind(4, std::string_view(sp.node.str())).bind(5, toString(sp.kind)).bind(6, std::string_view(sp.name));
            s.bind(7, sp.startUs);
            if (sp.endUs >= 0)
                s.bind(8, sp.endUs);
            else
                s.bindNull(8);
            s.bind(9, toString(sp.status)).bind(10, int64_t(sp.attempt)).bind(11, int64_t(sp.round));
            bindOptionalText(s, 12, sp.model);
            s.bind(13, sp.tokensIn).bind(14, sp.tokensOut).bind(15, sp.costUsd);
            if (sp.ttftUs >= 0)
                s.bind(16, sp.ttftUs);
            else
                s.bindNull(16);
            s.bind(17, sp.plannedMs);
            bindOptionalText(s, 18, sp.error);
            s.step();
            ok = s.errorCode() == 0;
            s.reset();
        } else if (auto* t = std::get_if<write_op::SpanText>(&op)) {
            auto& s = m_insertText;
            s.bind(1, std::string_view(t->run)).bind(2, int64_t(t->span)).bind(3, std::string_view(t->text));
            s.bind(4, int64_t(t->truncated ? 1 : 0));
            s.step();
            ok = s.errorCode() == 0;
            s.reset();
        } else if (auto* n = std::get_if<write_op::NodeRow>(&op)) {
            auto& s = m_insertNode;
            const auto& res = n->result;
            s.bind(1, std::string_view(n->run)).bind(2, std::string_view(n->node.str()));
            s.bind(3, toString(res.status)).bind(4, std::string_view(res.text)).bind(5, std::string_view(res.answer));
            s.bind(6, res.confidence).bind(7, res.tokensIn).bind(8, res.tokensOut).bind(9, res.costUsd);
            bindOptionalText(s, 10, res.error);
            if (n->queuedUs >= 0)
                s.bind(11, n->queuedUs);
            else
                s.bindNull(11);
            if (n->finishedUs >= 0)
                s.bind(12, n->finishedUs);
            else
                s.bindNull(12);
            s.step();
            ok = s.errorCode() == 0;
            s.reset();
        } else if (auto* e = std::get_if<write_op::RunEnd>(&op)) {
            auto path = nlohmann::json::array();
            for (const auto& node : e->criticalPath)
                path.push_back(node.str());
            const auto pathText = path.dump();
            auto& s = m_endRun;
            s.bind(1, std::string_view(e->run)).bind(2, toString(e->status)).bind(3, e->endedAtMs);
            s.bind(4, std::string_view(e->output.text)).bind(5, std::string_view(e->output.answer));
            s.bind(6, e->output.confidence);
            bindOptionalText(s, 7, e->output.error);
            s.bind(8, e->wallUs).bind(9, e->criticalPathUs).bind(10, std::string_view(pathText));
            s.bind(11, e->tokensIn).bind(12, e->tokensOut).bind(13, e->costUsd).bind(14, int64_t(e->calls));
            s.bind(15, toString(e->output.status));
            s.step();
            ok = s.errorCode() == 0;
            s.reset();
        }
        if (!ok)
            return false;
    }
    return true;
}

void RunStoreWriter::noteProgress(const std::vector<WriteOp>& batch)
{
    struct Tally {
        uint64_t started = 0;
        uint64_t finished = 0;
        bool ended = false;
    };
    std::map<std::string, Tally> tallies;
    for (const auto& op : batch) {
        if (const auto* r = std::get_if<write_op::SpanRow>(&op)) {
            auto& t = tallies[r->run];
            if (r->finished)
                ++t.finished;
            t.started = std::max<uint64_t>(t.started, r->span.id);
        } else if (const auto* e = std::get_if<write_op::RunEnd>(&op)) {
            tallies[e->run].ended = true;
        }
    }
    std::lock_guard lock(m_mutex);
    for (const auto& [run, t] : tallies) {
        const auto it = m_progress.find(run);
        if (it == m_progress.end())
            continue;
        auto& p = *it->second;
        if (t.started > p.spansStarted.load())
            p.spansStarted.store(t.started);
        p.spansFinished.fetch_add(t.finished);
        if (t.ended)
            p.finished.store(true);
    }
}

} // namespace conclave
