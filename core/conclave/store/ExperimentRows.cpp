// RunStore's experiments: saving them, their trials and run tags, deleting
// them, merging shards, and marking those of a dead process interrupted.
#include "conclave/store/ProcessIdentity.h"
#include "conclave/store/RunStore.h"

#include <nlohmann/json.hpp>

namespace conclave {

namespace {

constexpr size_t kBatchRows = 64;
constexpr auto kBatchAge = std::chrono::milliseconds(200);

std::string agentsJson(const std::vector<TrialAgent>& agents)
{
    auto out = nlohmann::json::array();
    for (const auto& a : agents)
        out.push_back({{"node", a.node}, {"cp", a.onCriticalPath}, {"cost", a.costUsd}, {"wall_us", a.wallUs},
                       {"ran", a.ran}});
    return out.dump();
}

// Runs a statement over the rows of another database attached as `shard`.
std::optional<std::string> run(SqliteDb& db, const std::string& sql)
{
    if (auto e = db.exec(sql))
        return e;
    return std::nullopt;
}

} // namespace

std::optional<std::string> RunStore::saveExperiment(const ExperimentRecord& e)
{
    if (auto pending = commitPending())
        return pending;
    auto designs = nlohmann::json(e.designs).dump();
    const auto me = ProcessIdentity::current();
    auto s = m_db.prepare(
        "INSERT INTO experiments (id, name, status, spec_json, designs_json, taskset, planned_trials, "
        "started_at_ms, ended_at_ms, note, host, pid, pid_start) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, "
        "?11, ?12, ?13) ON CONFLICT(id) DO UPDATE SET name = ?2, status = ?3, planned_trials = ?7, "
        "ended_at_ms = ?9, note = ?10, host = ?11, pid = ?12, pid_start = ?13");
    s.bind(1, std::string_view(e.id)).bind(2, std::string_view(e.name)).bind(3, toString(e.status));
    s.bind(4, std::string_view(e.specJson)).bind(5, std::string_view(designs)).bind(6, std::string_view(e.taskset));
    s.bind(7, e.plannedTrials).bind(8, e.startedAtMs).bind(9, e.endedAtMs).bind(10, std::string_view(e.note));
    s.bind(11, std::string_view(me.host)).bind(12, me.pid).bind(13, me.startTime);
    s.step();
    if (!s.error().empty())
        return m_path.string() + ": " + s.error();
    return std::nullopt;
}

void RunStore::tagRun(const RunId& run, const std::string& experimentId)
{
    if (m_pending.tags.empty() && m_pending.trials.empty())
        m_pending.since = std::chrono::steady_clock::now();
    m_pending.tags.emplace_back(run.str(), experimentId);
}

void RunStore::addTrial(const TrialRecord& trial)
{
    if (m_pending.tags.empty() && m_pending.trials.empty())
        m_pending.since = std::chrono::steady_clock::now();
    m_pending.trials.push_back(trial);
    if (m_pending.trials.size() + m_pending.tags.size() >= kBatchRows ||
        std::chrono::steady_clock::now() - m_pending.since >= kBatchAge) {
        if (auto e = commitPending(); e && !m_pending.error)
            m_pending.error = e;
    }
}

std::optional<std::string> RunStore::flushTrials()
{
    if (auto e = commitPending(); e && !m_pending.error)
        m_pending.error = e;
    auto error = std::move(m_pending.error);
    m_pending.error.reset();
    return error;
}

std::optional<std::string> RunStore::commitPending()
{
    if (m_pending.tags.empty() && m_pending.trials.empty())
        return std::nullopt;
    if (auto e = m_db.exec("BEGIN IMMEDIATE"))
        return m_path.string() + ": " + *e;
    auto tag = m_db.prepare("INSERT OR REPLACE INTO experiment_runs (run_id, experiment_id) VALUES (?1, ?2)");
    for (const auto& [run, experiment] : m_pending.tags) {
        tag.bind(1, std::string_view(run)).bind(2, std::string_view(experiment));
        tag.step();
        tag.reset();
    }
    auto row = m_db.prepare(
        "INSERT OR REPLACE INTO trials (experiment_id, design, design_name, task, domain, seed, run_id, status, "
        "answer, expected, correct, score_detail, wall_us, critical_path_us, cost_usd, judge_cost_usd, tokens, "
        "calls, agents_json) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, "
        "?18, ?19)");
    for (const auto& t : m_pending.trials) {
        const auto agents = agentsJson(t.agents);
        row.bind(1, std::string_view(t.experimentId)).bind(2, int64_t(t.design));
        row.bind(3, std::string_view(t.designName)).bind(4, std::string_view(t.task));
        row.bind(5, std::string_view(t.domain)).bind(6, int64_t(t.seed)).bind(7, std::string_view(t.runId.str()));
        row.bind(8, toString(t.status)).bind(9, std::string_view(t.answer)).bind(10, std::string_view(t.expected));
        if (t.correct)
            row.bind(11, int64_t(*t.correct ? 1 : 0));
        else
            row.bindNull(11);
        row.bind(12, std::string_view(t.scoreDetail)).bind(13, t.wallUs).bind(14, t.criticalPathUs);
        row.bind(15, t.costUsd).bind(16, t.judgeCostUsd).bind(17, t.tokens).bind(18, int64_t(t.calls));
        row.bind(19, std::string_view(agents));
        row.step();
        if (!row.error().empty()) {
            const auto error = row.error();
            m_db.exec("ROLLBACK");
            return m_path.string() + ": " + error;
        }
        row.reset();
    }
    m_pending.tags.clear();
    m_pending.trials.clear();
    if (auto e = m_db.exec("COMMIT")) {
        m_db.exec("ROLLBACK");
        return m_path.string() + ": " + *e;
    }
    return std::nullopt;
}

RunStore::Deleted RunStore::removeExperiment(const std::string& id)
{
    if (auto e = commitPending())
        return {0, *e};
    std::vector<std::string> runs;
    auto s = m_db.prepare("SELECT run_id FROM experiment_runs WHERE experiment_id = ?1");
    s.bind(1, std::string_view(id));
    while (s.step())
        runs.push_back(s.text(0));
    auto deleted = removeWhere(runs);
    if (!deleted.error.empty())
        return deleted;
    for (const char* sql : {"DELETE FROM trials WHERE experiment_id = ?1",
                            "DELETE FROM experiment_runs WHERE experiment_id = ?1",
                            "DELETE FROM experiments WHERE id = ?1"}) {
        auto d = m_db.prepare(sql);
        d.bind(1, std::string_view(id));
        d.step();
        if (!d.error().empty())
            return {deleted.count, m_path.string() + ": " + d.error()};
    }
    return deleted;
}

int RunStore::recoverExperiments()
{
    std::vector<std::string> dead;
    {
        auto s = m_db.prepare("SELECT id, host, pid, pid_start FROM experiments WHERE status = 'running'");
        while (s.valid() && s.step()) {
            const ProcessIdentity writer{s.text(1), s.int64(2), s.int64(3)};
            if (!writer.alive())
                dead.push_back(s.text(0));
        }
    }
    auto update = m_db.prepare("UPDATE experiments SET status = 'interrupted', note = 'the process running it "
                               "ended before it finished' WHERE id = ?1");
    for (const auto& id : dead) {
        update.bind(1, std::string_view(id));
        update.step();
        update.reset();
    }
    return int(dead.size());
}

RunStore::Merged RunStore::mergeFrom(const std::filesystem::path& other)
{
    Merged merged;
    const std::string name = other.string();
    {
        // Checked (and brought to this schema) the way every store is opened.
        auto opened = RunStore::open(other);
        if (!opened.store) {
            merged.error = opened.error;
            return merged;
        }
    }
    if (auto e = commitPending()) {
        merged.error = *e;
        return merged;
    }
    auto attach = m_db.prepare("ATTACH DATABASE ?1 AS shard");
    attach.bind(1, std::string_view(name));
    attach.step();
    if (!attach.error().empty()) {
        merged.error = name + ": cannot attach (" + attach.error() + ")";
        return merged;
    }
    const auto fail = [&](std::string error) {
        m_db.exec("ROLLBACK");
        m_db.exec("DETACH DATABASE shard");
        merged = Merged{};
        merged.error = std::move(error);
        return merged;
    };
    if (auto e = m_db.exec("BEGIN IMMEDIATE"))
        return fail(m_path.string() + ": " + *e);
    {
        auto clash = m_db.prepare("SELECT s.id FROM shard.experiments s JOIN main.experiments m ON m.id = s.id "
                                  "WHERE m.spec_json != s.spec_json LIMIT 1");
        if (clash.step())
            return fail(name + ": experiment " + clash.text(0) + " has a different spec than the one in " +
                        m_path.string() +
                        "; shards of one experiment must be run with the same designs, tasks, seeds and scorer");
    }
    const auto count = [&](const char* sql) {
        auto s = m_db.prepare(sql);
        return s.step() ? int(s.int64(0)) : 0;
    };
    merged.experiments = count("SELECT count(*) FROM shard.experiments");
    merged.trials = count("SELECT count(*) FROM shard.trials WHERE NOT EXISTS (SELECT 1 FROM main.trials m WHERE "
                          "m.experiment_id = shard.trials.experiment_id AND m.design = shard.trials.design AND "
                          "m.task = shard.trials.task AND m.seed = shard.trials.seed)");
    merged.runs = count("SELECT count(*) FROM shard.experiment_runs WHERE run_id NOT IN (SELECT run_id FROM "
                        "main.experiment_runs)");
    const std::string ofShard = " WHERE run_id IN (SELECT run_id FROM shard.experiment_runs)";
    const std::vector<std::string> statements{
         std::string("INSERT OR IGNORE INTO main.experiments SELECT * FROM shard.experiments"),
          "INSERT OR IGNORE INTO main.experiment_runs SELECT * FROM shard.experiment_runs",
          "INSERT OR IGNORE INTO main.trials SELECT * FROM shard.trials",
          "INSERT OR IGNORE INTO main.runs SELECT * FROM shard.runs WHERE id IN (SELECT run_id FROM "
          "shard.experiment_runs)",
          "INSERT OR IGNORE INTO main.spans SELECT * FROM shard.spans" + ofShard,
          "INSERT OR IGNORE INTO main.span_text SELECT * FROM shard.span_text" + ofShard,
          "INSERT OR IGNORE INTO main.node_results SELECT * FROM shard.node_results" + ofShard,
          // Finished once every planned trial is here.
          "UPDATE main.experiments SET status = CASE WHEN (SELECT count(*) FROM main.trials t WHERE "
          "t.experiment_id = experiments.id) >= planned_trials THEN 'finished' ELSE 'interrupted' END "
          "WHERE id IN (SELECT id FROM shard.experiments) AND status != 'running'"};
    for (const auto& sql : statements) {
        if (auto e = run(m_db, sql))
            return fail(m_path.string() + ": " + *e);
    }
    if (auto e = m_db.exec("COMMIT"))
        return fail(m_path.string() + ": " + *e);
    m_db.exec("DETACH DATABASE shard");
    return merged;
}

} // namespace conclave
