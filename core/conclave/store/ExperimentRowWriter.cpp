#include "conclave/store/ExperimentRowWriter.h"

#include <nlohmann/json.hpp>

namespace conclave {

ExperimentRowWriter::ExperimentRowWriter(SqliteDb& db)
    : m_upsertExperiment(db.prepare(
          "INSERT INTO experiments (id, name, status, spec_json, designs_json, taskset, planned_trials, "
          "started_at_ms, ended_at_ms, note, host, pid, pid_start, spent_usd) "
          "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14) "
          "ON CONFLICT (id) DO UPDATE SET name = excluded.name, status = excluded.status, "
          "planned_trials = excluded.planned_trials, ended_at_ms = excluded.ended_at_ms, note = excluded.note, "
          "host = excluded.host, pid = excluded.pid, pid_start = excluded.pid_start, "
          "spent_usd = excluded.spent_usd")),
      m_replaceTrial(db.prepare(
          "INSERT OR REPLACE INTO trials (experiment_id, design, design_name, task, domain, seed, run_id, status, "
          "answer, expected, correct, score_detail, wall_us, critical_path_us, cost_usd, judge_cost_usd, tokens, "
          "calls, agents_json, replayed_calls, judge_run_id) "
          "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21)"))
{
}

bool ExperimentRowWriter::write(const ExperimentWriteOp& op)
{
    return std::visit([this](const auto& row) { return write(row); }, op);
}

bool ExperimentRowWriter::write(const write_op::ExperimentRow& row)
{
    const auto& e = row.record;
    const auto designs = nlohmann::json(e.designs).dump();
    auto& s = m_upsertExperiment;
    s.bind(1, std::string_view(e.id)).bind(2, std::string_view(e.name)).bind(3, toString(e.status));
    s.bind(4, std::string_view(e.specJson)).bind(5, std::string_view(designs)).bind(6, std::string_view(e.taskset));
    s.bind(7, e.plannedTrials).bind(8, e.startedAtMs);
    if (e.endedAtMs < 0)
        s.bindNull(9);
    else
        s.bind(9, e.endedAtMs);
    s.bind(10, std::string_view(e.note)).bind(11, std::string_view(row.host)).bind(12, row.pid);
    s.bind(13, row.pidStart).bind(14, e.spentUsd);
    return s.execute();
}

bool ExperimentRowWriter::write(const write_op::TrialRow& row)
{
    const auto& t = row.trial;
    const auto agents = trialAgentsToJson(t.agents);
    auto& s = m_replaceTrial;
    s.bind(1, std::string_view(t.experimentId)).bind(2, int64_t(t.design)).bind(3, std::string_view(t.designName));
    s.bind(4, std::string_view(t.task)).bind(5, std::string_view(t.domain)).bind(6, int64_t(t.seed));
    // NULL: only the trial's figures were stored, no run.
    if (t.runId.empty())
        s.bindNull(7);
    else
        s.bind(7, std::string_view(t.runId.str()));
    s.bind(8, toString(t.status)).bind(9, std::string_view(t.answer));
    s.bind(10, std::string_view(t.expected));
    if (t.correct)
        s.bind(11, int64_t(*t.correct ? 1 : 0));
    else
        s.bindNull(11);
    s.bind(12, std::string_view(t.scoreDetail)).bind(13, t.wallUs).bind(14, t.criticalPathUs);
    s.bind(15, t.costUsd).bind(16, t.judgeCostUsd).bind(17, t.tokens).bind(18, int64_t(t.calls));
    s.bind(19, std::string_view(agents)).bind(20, int64_t(t.replayedCalls));
    if (t.judgeRunId.empty())
        s.bindNull(21);
    else
        s.bind(21, std::string_view(t.judgeRunId.str()));
    return s.execute();
}

} // namespace conclave
