// RunQueries' experiments: the list, one experiment, its trials.
#include "conclave/store/RunQueries.h"

#include "conclave/io/JsonText.h"
#include "conclave/store/LiveStatus.h"

#include <nlohmann/json.hpp>

namespace conclave {

namespace {

// From `experiments`; its status and note as they are now (LiveStatus).
const std::string& experimentColumns()
{
    static const std::string columns =
        "id, name, " + LiveStatus::status("experiments") +
        ", spec_json, designs_json, taskset, planned_trials, started_at_ms, ended_at_ms, " +
        LiveStatus::experimentNote("experiments") +
        ", (SELECT count(*) FROM trials t WHERE t.experiment_id = experiments.id), spent_usd";
    return columns;
}

ExperimentRecord experimentFrom(const SqliteStatement& s, bool withSpec)
{
    ExperimentRecord e;
    e.id = s.text(0);
    e.name = s.text(1);
    e.status = experimentStatusFromString(s.textView(2)).value_or(ExperimentStatus::Interrupted);
    if (withSpec)
        e.specJson = s.text(3);
    const auto designs = parseJsonQuietly(s.textView(4));
    if (designs.is_array()) {
        for (const auto& d : designs) {
            if (d.is_string())
                e.designs.push_back(d.get<std::string>());
        }
    }
    e.taskset = s.text(5);
    e.plannedTrials = s.int64(6);
    e.startedAtMs = s.int64(7);
    e.endedAtMs = s.isNull(8) ? -1 : s.int64(8);
    e.note = s.text(9);
    e.storedTrials = s.int64(10);
    e.spentUsd = s.real(11);
    return e;
}

} // namespace

std::optional<std::vector<ExperimentRecord>> RunQueries::experiments(std::string& error)
{
    if (!begin(error))
        return std::nullopt;
    auto s = m_db.prepare("SELECT " + experimentColumns() + " FROM experiments ORDER BY started_at_ms DESC, id DESC");
    std::vector<ExperimentRecord> out;
    while (s.step())
        out.push_back(experimentFrom(s, false));
    end();
    if (!s.error().empty()) {
        error = s.error();
        return std::nullopt;
    }
    return out;
}

std::optional<ExperimentRecord> RunQueries::experiment(const std::string& idOrPrefix, std::string& error)
{
    if (!begin(error))
        return std::nullopt;
    auto s = m_db.prepare("SELECT " + experimentColumns() +
                          " FROM experiments WHERE substr(id, 1, length(?1)) = ?1 ORDER BY id = ?1 DESC LIMIT 2");
    s.bind(1, std::string_view(idOrPrefix));
    std::vector<ExperimentRecord> found;
    while (s.step())
        found.push_back(experimentFrom(s, true));
    end();
    if (!s.error().empty()) {
        error = s.error();
        return std::nullopt;
    }
    if (idOrPrefix.empty() || found.empty()) {
        error = "no experiment \"" + idOrPrefix + "\"";
        return std::nullopt;
    }
    if (found.size() > 1 && found.front().id != idOrPrefix) {
        error = "\"" + idOrPrefix + "\" names more than one experiment; give more of the id";
        return std::nullopt;
    }
    return std::move(found.front());
}

std::optional<std::vector<TrialRecord>> RunQueries::trials(const std::string& experimentId, std::string& error)
{
    if (!begin(error))
        return std::nullopt;
    auto s = m_db.prepare(
        "SELECT experiment_id, design, design_name, task, domain, seed, run_id, status, answer, expected, correct, "
        "score_detail, wall_us, critical_path_us, cost_usd, judge_cost_usd, tokens, calls, agents_json, "
        "replayed_calls, "
        "judge_run_id FROM trials "
        "WHERE experiment_id = ?1 ORDER BY design, task, seed");
    s.bind(1, std::string_view(experimentId));
    std::vector<TrialRecord> out;
    while (s.step()) {
        TrialRecord t;
        t.experimentId = s.text(0);
        t.design = int(s.int64(1));
        t.designName = s.text(2);
        t.task = s.text(3);
        t.domain = s.text(4);
        t.seed = uint64_t(s.int64(5));
        t.runId = RunId(s.text(6));
        t.status = runStatusFromString(s.textView(7)).value_or(RunStatus::Failed);
        t.answer = s.text(8);
        t.expected = s.text(9);
        if (!s.isNull(10))
            t.correct = s.int64(10) != 0;
        t.scoreDetail = s.text(11);
        t.wallUs = s.int64(12);
        t.criticalPathUs = s.int64(13);
        t.costUsd = s.real(14);
        t.judgeCostUsd = s.real(15);
        t.tokens = s.int64(16);
        t.calls = int(s.int64(17));
        t.agents = trialAgentsFromJson(s.textView(18));
        t.replayedCalls = int(s.int64(19));
        t.judgeRunId = RunId(s.text(20));
        out.push_back(std::move(t));
    }
    end();
    if (!s.error().empty()) {
        error = s.error();
        return std::nullopt;
    }
    return out;
}

} // namespace conclave
