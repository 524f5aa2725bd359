#include "conclave/store/RunStoreWriter.h"

#include "conclave/util/ThreadName.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <sys/resource.h>
#include <thread>
#include <unistd.h>
#include <unordered_set>

namespace conclave {

namespace {

constexpr std::string_view kUpsertSpan =
    "INSERT INTO spans (run_id, id, parent, node, kind, name, start_us, end_us, status, attempt, round, model, "
    "tokens_in, tokens_out, cost_usd, ttft_us, planned_ms, error, note, inflight, wait_us, draw) "
    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22) "
    "ON CONFLICT (run_id, id) DO UPDATE SET end_us = excluded.end_us, status = excluded.status, "
    "model = excluded.model, tokens_in = excluded.tokens_in, tokens_out = excluded.tokens_out, "
    "cost_usd = excluded.cost_usd, ttft_us = excluded.ttft_us, planned_ms = excluded.planned_ms, "
    "error = excluded.error, note = excluded.note, inflight = excluded.inflight, wait_us = excluded.wait_us, "
    "draw = excluded.draw";

void bindOptionalText(SqliteStatement& s, int index, const std::string& text)
{
    if (text.empty())
        s.bindNull(index);
    else
        s.bind(index, std::string_view(text));
}

// NULL for a value below `least` (-1 for "none", 0 for "no parent").
void bindOptionalInt(SqliteStatement& s, int index, int64_t value, int64_t least)
{
    if (value < least)
        s.bindNull(index);
    else
        s.bind(index, value);
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
        !writer->m_insertNode.valid() || !writer->m_endRun.valid() || !writer->m_experimentRows.valid()) {
        error = writer->m_db.lastError();
        return nullptr;
    }
    writer->m_thread = std::thread([w = writer.get()] {
        // Named, so a profiler or `conclave bench serve` can tell the store's CPU apart.
        nameThisThread("conclave-store");
        w->loop();
    });
    return writer;
}

RunStoreWriter::RunStoreWriter(SqliteDb db, Options options)
    : m_db(std::move(db)), m_options(options), m_experimentRows(m_db)
{
    m_insertRun = m_db.prepare(
        "INSERT INTO runs (id, team_name, team_json, input, seed, status, started_at_ms, host, pid, pid_start, "
        "clock, experiment_id, source, team_hash, key_name) "
        "VALUES (?1, ?2, ?3, ?4, ?5, 'running', ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)");
    m_upsertSpan = m_db.prepare(kUpsertSpan);
    m_insertText =
        m_db.prepare("INSERT OR REPLACE INTO span_text (run_id, span_id, text, truncated) VALUES (?1, ?2, ?3, ?4)");
    m_insertNode = m_db.prepare("INSERT OR REPLACE INTO node_results (run_id, node, status, text, answer, "
                                "confidence, tokens_in, tokens_out, cost_usd, error, queued_us, finished_us, "
                                "skipped_model, agreed) "
                                "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)");
    m_endRun = m_db.prepare("UPDATE runs SET status = ?2, ended_at_ms = ?3, output = ?4, answer = ?5, "
                            "confidence = ?6, output_error = ?7, wall_us = ?8, critical_path_us = ?9, "
                            "critical_path = ?10, tokens_in = ?11, tokens_out = ?12, cost_usd = ?13, calls = ?14, "
                            "output_status = ?15, cpu_us = ?16 "
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

std::shared_ptr<WriteFeed> RunStoreWriter::attach(std::string run)
{
    auto feed = std::make_shared<WriteFeed>(std::move(run), m_pool);
    std::lock_guard lock(m_mutex);
    m_feeds.push_back(feed);
    return feed;
}

void RunStoreWriter::detach(const std::shared_ptr<WriteFeed>& feed)
{
    // A run's end is the last thing its feed queues: once it is stored, nothing is left to wait for.
    if (!feed->progress().finished.load())
        flush();
    std::lock_guard lock(m_mutex);
    std::erase(m_feeds, feed);
}

void RunStoreWriter::wake(bool full)
{
    {
        std::lock_guard lock(m_mutex);
        m_pending = true;
        m_full = m_full || full;
    }
    m_wake.notify_one();
}

void RunStoreWriter::pushExperiment(ExperimentWriteOp op)
{
    {
        std::lock_guard lock(m_mutex);
        m_experimentOps.push_back(std::move(op));
        m_pending = true;
    }
    m_wake.notify_one();
}

void RunStoreWriter::flush()
{
    std::unique_lock lock(m_mutex);
    const auto ticket = ++m_flushWanted;
    m_pending = true;
    m_wake.notify_one();
    m_committedCv.wait(lock, [&] { return m_flushDone >= ticket; });
}

std::string RunStoreWriter::error() const
{
    std::lock_guard lock(m_mutex);
    return m_error;
}

int64_t RunStoreWriter::lostTrials() const
{
    std::lock_guard lock(m_mutex);
    return m_lostTrials;
}

void RunStoreWriter::loop()
{
    if (m_options.lowPriority)
        setpriority(PRIO_PROCESS, id_t(::gettid()), 10);
    std::vector<Taken> batch;
    std::vector<ExperimentWriteOp> experimentOps;
    std::unique_lock lock(m_mutex);
    for (;;) {
        // Every push that finds its feed empty sets m_pending, so when it is
        // clear at a stop, nothing is left queued.
        m_wake.wait(lock, [&] { return m_stop || m_pending; });
        if (!m_pending && m_stop)
            break;
        const auto deadline = std::chrono::steady_clock::now() + m_options.maxDelay;
        m_wake.wait_until(lock, deadline, [&] { return m_stop || m_full || m_flushWanted > m_flushDone; });
        // Cleared before the feeds are taken: a push after this wakes the next round.
        m_pending = false;
        m_full = false;
        const auto flushes = m_flushWanted;
        // Experiments' operations before the feeds': a run operation pushed before
        // one of them is then in a feed already attached, taken after it.
        experimentOps.swap(m_experimentOps);
        for (const auto& feed : m_feeds)
            batch.push_back({feed, {}});
        lock.unlock();
        for (auto& taken : batch)
            taken.feed->take(taken.chunks);
        write(batch, experimentOps);
        for (auto& taken : batch)
            m_pool->giveBack(taken.chunks);
        batch.clear();
        experimentOps.clear();
        lock.lock();
        m_flushDone = flushes;
        m_committedCv.notify_all();
        if (m_checkpointDue && !m_pending) {
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

void RunStoreWriter::write(std::vector<Taken>& batch, const std::vector<ExperimentWriteOp>& experimentOps)
{
    size_t size = experimentOps.size();
    bool durable = !experimentOps.empty();
    for (const auto& taken : batch) {
        for (const auto& chunk : taken.chunks) {
            size += chunk.size();
            durable = durable || std::any_of(chunk.begin(), chunk.end(), [](const WriteOp& op) {
                          return std::holds_alternative<write_op::RunEnd>(op);
                      });
        }
    }
    if (size == 0)
        return;
    std::string failure;
    auto backoff = m_options.retryBackoff;
    for (int attempt = 1;; ++attempt) {
        failure = commit(batch, experimentOps, durable);
        if (failure.empty() || attempt >= m_options.commitAttempts)
            break;
        std::this_thread::sleep_for(backoff);
        backoff *= 2;
    }
    if (!failure.empty()) {
        const auto trials = std::count_if(experimentOps.begin(), experimentOps.end(), [](const ExperimentWriteOp& op) {
            return std::holds_alternative<write_op::TrialRow>(op);
        });
        std::lock_guard lock(m_mutex);
        if (m_error.empty())
            m_error = failure;
        m_lostTrials += int64_t(trials);
        return;
    }
    for (const auto& taken : batch)
        noteProgress(taken);
    m_sinceCheckpoint += size;
    if (durable || m_sinceCheckpoint >= m_options.checkpointEvery)
        m_checkpointDue = true;
}

std::string RunStoreWriter::commit(const std::vector<Taken>& batch, const std::vector<ExperimentWriteOp>& experimentOps,
                                   bool durable)
{
    if (durable)
        m_db.exec("PRAGMA synchronous = FULL");
    m_queuedAtChanges.clear();
    std::string failure;
    if (auto e = m_db.exec("BEGIN IMMEDIATE")) {
        failure = *e;
    } else if (!writeAll(batch, experimentOps)) {
        failure = m_db.lastError();
        m_db.exec("ROLLBACK");
    } else if (auto c = m_db.exec("COMMIT")) {
        failure = *c;
        m_db.exec("ROLLBACK");
    }
    if (!failure.empty())
        undoQueuedAt();
    if (durable)
        m_db.exec("PRAGMA synchronous = NORMAL");
    return failure;
}

void RunStoreWriter::undoQueuedAt()
{
    for (auto it = m_queuedAtChanges.rbegin(); it != m_queuedAtChanges.rend(); ++it) {
        auto& queuedAt = it->feed->queuedAt();
        if (it->inserted)
            queuedAt.erase(it->node);
        else
            queuedAt.emplace(it->node, it->atUs);
    }
    m_queuedAtChanges.clear();
}

bool RunStoreWriter::writeAll(const std::vector<Taken>& batch, const std::vector<ExperimentWriteOp>& experimentOps)
{
    for (const auto& taken : batch) {
        if (!writeOps(*taken.feed, taken.chunks))
            return false;
    }
    for (const auto& op : experimentOps) {
        if (!m_experimentRows.write(op))
            return false;
    }
    return true;
}

bool RunStoreWriter::writeOps(WriteFeed& feed, const std::vector<WriteFeed::Chunk>& chunks)
{
    // A span that started and finished within one batch is written once, in its final state.
    std::unordered_set<SpanId> finishedHere;
    for (const auto& chunk : chunks) {
        for (const auto& op : chunk) {
            if (const auto* r = std::get_if<write_op::SpanRow>(&op); r && r->finished)
                finishedHere.insert(r->span.id);
        }
    }
    const std::string_view runId(feed.run());
    auto& queuedAt = feed.queuedAt();
    for (const auto& chunk : chunks) {
        for (const auto& op : chunk) {
            bool ok = true;
            if (const auto* q = std::get_if<write_op::NodeQueued>(&op)) {
                if (queuedAt.try_emplace(q->node, q->atUs).second)
                    m_queuedAtChanges.push_back({&feed, q->node, q->atUs, true});
            } else if (const auto* n = std::get_if<write_op::NodeRow>(&op)) {
                const auto it = queuedAt.find(n->node);
                ok = writeRow(runId, *n, it == queuedAt.end() ? -1 : it->second);
                if (it != queuedAt.end()) {
                    m_queuedAtChanges.push_back({&feed, it->first, it->second, false});
                    queuedAt.erase(it);
                }
            } else if (const auto* r = std::get_if<write_op::SpanRow>(&op)) {
                // Its finished state follows in this batch.
                ok = (!r->finished && finishedHere.count(r->span.id)) || writeRow(runId, *r);
            } else if (const auto* b = std::get_if<write_op::RunBegin>(&op)) {
                ok = writeRow(runId, *b);
            } else if (const auto* e = std::get_if<write_op::RunEnd>(&op)) {
                ok = writeRow(runId, *e);
            }
            if (!ok)
                return false;
        }
    }
    return true;
}

bool RunStoreWriter::writeRow(std::string_view run, const write_op::RunBegin& b)
{
    auto& s = m_insertRun;
    s.bind(1, run).bind(2, std::string_view(b.teamName)).bind(3, std::string_view(b.teamJson));
    s.bind(4, std::string_view(b.input)).bind(5, int64_t(b.seed)).bind(6, b.startedAtMs);
    s.bind(7, std::string_view(b.host)).bind(8, b.pid).bind(9, b.pidStart).bind(10, toString(b.clock));
    bindOptionalText(s, 11, b.experimentId);
    s.bind(12, toString(b.source)).bind(13, std::string_view(b.teamHash));
    bindOptionalText(s, 14, b.keyName);
    return s.execute();
}

bool RunStoreWriter::writeRow(std::string_view run, const write_op::SpanRow& r)
{
    const auto& sp = r.span;
    auto& s = m_upsertSpan;
    s.bind(1, run).bind(2, int64_t(sp.id));
    bindOptionalInt(s, 3, int64_t(sp.parent), 1);
    s.bind(4, std::string_view(sp.node.str())).bind(5, toString(sp.kind)).bind(6, std::string_view(sp.name));
    s.bind(7, sp.startUs);
    bindOptionalInt(s, 8, sp.endUs, 0);
    s.bind(9, toString(sp.status)).bind(10, int64_t(sp.attempt)).bind(11, int64_t(sp.round));
    bindOptionalText(s, 12, sp.model);
    s.bind(13, sp.tokensIn).bind(14, sp.tokensOut).bind(15, sp.costUsd);
    bindOptionalInt(s, 16, sp.ttftUs, 0);
    s.bind(17, sp.plannedMs);
    bindOptionalText(s, 18, sp.error);
    bindOptionalText(s, 19, sp.note);
    bindOptionalInt(s, 20, sp.inflight, 1);
    bindOptionalInt(s, 21, sp.waitUs, 0);
    bindOptionalText(s, 22, sp.draw);
    if (!s.execute())
        return false;
    if (!r.hasText)
        return true;
    auto& t = m_insertText;
    t.bind(1, run).bind(2, int64_t(sp.id)).bind(3, std::string_view(r.text)).bind(4, int64_t(r.truncated ? 1 : 0));
    return t.execute();
}

bool RunStoreWriter::writeRow(std::string_view run, const write_op::NodeRow& n, int64_t queuedUs)
{
    const auto& res = n.result;
    auto& s = m_insertNode;
    s.bind(1, run).bind(2, std::string_view(n.node.str())).bind(3, toString(res.status));
    s.bind(4, std::string_view(res.text)).bind(5, std::string_view(res.answer)).bind(6, res.confidence);
    s.bind(7, res.tokensIn).bind(8, res.tokensOut).bind(9, res.costUsd);
    bindOptionalText(s, 10, res.error);
    bindOptionalInt(s, 11, queuedUs, 0);
    bindOptionalInt(s, 12, n.finishedUs, 0);
    bindOptionalText(s, 13, res.skippedModel);
    // Bound without a copy (SQLITE_STATIC): the text must live until the statement has run.
    const std::string agreed = res.agreed.empty() ? std::string() : nlohmann::json(res.agreed).dump();
    bindOptionalText(s, 14, agreed);
    return s.execute();
}

bool RunStoreWriter::writeRow(std::string_view run, const write_op::RunEnd& e)
{
    auto path = nlohmann::json::array();
    for (const auto& node : e.criticalPath)
        path.push_back(node.str());
    const auto pathText = path.dump();
    auto& s = m_endRun;
    s.bind(1, run).bind(2, toString(e.status)).bind(3, e.endedAtMs);
    s.bind(4, std::string_view(e.output.text)).bind(5, std::string_view(e.output.answer));
    s.bind(6, e.output.confidence);
    bindOptionalText(s, 7, e.output.error);
    s.bind(8, e.wallUs).bind(9, e.criticalPathUs).bind(10, std::string_view(pathText));
    s.bind(11, e.tokensIn).bind(12, e.tokensOut).bind(13, e.costUsd).bind(14, int64_t(e.calls));
    s.bind(15, toString(e.output.status)).bind(16, e.cpuUs);
    return s.execute();
}

void RunStoreWriter::noteProgress(const Taken& taken)
{
    uint64_t started = 0, finished = 0;
    bool ended = false;
    for (const auto& chunk : taken.chunks) {
        for (const auto& op : chunk) {
            if (const auto* r = std::get_if<write_op::SpanRow>(&op)) {
                finished += r->finished ? 1 : 0;
                started = std::max<uint64_t>(started, r->span.id);
            } else if (std::holds_alternative<write_op::RunEnd>(op)) {
                ended = true;
            }
        }
    }
    auto& p = taken.feed->progress();
    if (started > p.spansStarted.load())
        p.spansStarted.store(started);
    p.spansFinished.fetch_add(finished);
    if (ended)
        p.finished.store(true);
}

} // namespace conclave
