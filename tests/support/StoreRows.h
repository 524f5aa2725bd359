#pragma once

// Include after `#undef emit`, as core headers are. Rows for the run store's tests: an experiment and its trials as the
// runner would save them, a small finished run, and raw reads of a store file (a connection of the test's own, so they
// see only what was committed).
#include <QString>
#include <QStringList>

#include "conclave/bench/BenchTeams.h"
#include "conclave/store/RunStore.h"
#include "conclave/store/SqliteDb.h"
#include "conclave/store/StoreSchema.h"

#include <fstream>
#include <iterator>
#include <string>

namespace testsupport {

inline std::string readBytes(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline conclave::ExperimentRecord experimentRecord(const std::string& id,
                                                   const std::string& spec = R"({"seeds":[1,2]})")
{
    conclave::ExperimentRecord e;
    e.id = id;
    e.name = "Gate or not";
    e.status = conclave::ExperimentStatus::Finished;
    e.specJson = spec;
    e.designs = {"gate", "panel"};
    e.taskset = "arith-20";
    e.plannedTrials = 4;
    e.startedAtMs = 1700000000123;
    e.endedAtMs = 1700000009876;
    e.note = "--max-cost 0.50 reached";
    return e;
}

// Costs 0.25 + 0.125 (judge): sums of them are exact in binary.
inline conclave::TrialRecord trialRecord(const std::string& experiment, int design, const std::string& task,
                                         uint64_t seed, const conclave::RunId& run)
{
    conclave::TrialRecord t;
    t.experimentId = experiment;
    t.design = design;
    t.designName = design == 0 ? "gate" : "panel";
    t.task = task;
    t.domain = "math";
    t.seed = seed;
    t.runId = run;
    t.status = conclave::RunStatus::Partial;
    t.answer = "42";
    t.expected = "42";
    t.correct = true;
    t.scoreDetail = "numeric ±0.01";
    t.wallUs = 120000 + design;
    t.criticalPathUs = 90000;
    t.costUsd = 0.25;
    t.judgeCostUsd = 0.125;
    t.tokens = 812;
    t.calls = 3;
    t.agents = {{"a", true, 0.125, 4000, true, {3000, 1000}}, {"b", false, 0, 0, false, {}}};
    return t;
}

// Spans `from`..`to` of a run, each started and finished (span 1 with streamed text).
inline void recordSpans(conclave::RunRecorder& recorder, conclave::SpanId from, conclave::SpanId to)
{
    using namespace conclave;
    for (SpanId i = from; i <= to; ++i) {
        Span s;
        s.id = i;
        s.node = NodeId("e" + std::to_string(i));
        s.startUs = int64_t(i) * 100;
        recorder.spanStarted(s);
        if (i == 1)
            recorder.nodeToken(s.node, i, "streamed", s.startUs + 10);
        s.endUs = s.startUs + 50;
        s.status = Status::Ok;
        recorder.spanFinished(s);
    }
}

// Ends a run recordSpans wrote: a node result, then the run's end; false when the store failed.
inline bool finishRun(conclave::RunRecorder& recorder)
{
    using namespace conclave;
    NodeResult node;
    node.status = Status::Ok;
    node.text = "done";
    recorder.nodeFinished(NodeId("e1"), node, 150);
    RunResult result;
    result.status = RunStatus::Ok;
    recorder.runFinished(result);
    return recorder.waitUntilStored().empty();
}

// A finished run with two spans (one with streamed text) and a node result; an empty id on failure.
inline conclave::RunId storeRun(conclave::RunStore& store, const std::string& experimentId)
{
    using namespace conclave;
    std::string error;
    auto recorder = store.record(BenchTeams::fanOut(2, 1), error, experimentId);
    if (!recorder)
        return {};
    recorder->runStarted("q", 1, ClockKind::Real);
    recordSpans(*recorder, 1, 2);
    if (!finishRun(*recorder))
        return {};
    return recorder->id();
}

// A store of an older schema `version` (in WAL mode, as Conclave makes them) holding
// one finished run, 00000000000a; false when it cannot be made.
inline bool makeOlderStore(const std::string& path, int version)
{
    conclave::SqliteDb db;
    return !db.open(path, conclave::SqliteDb::Mode::Create) && !db.exec("PRAGMA journal_mode = WAL") &&
           !conclave::StoreSchema::migrate(db, version) &&
           !db.exec("INSERT INTO runs (id, team_name, team_json, input, seed, status, started_at_ms) "
                    "VALUES ('00000000000a', 'old', '{}', 'q', 1, 'ok', 5)");
}

// One integer from a query on the file; -1 when it cannot be read.
inline int64_t rows(const std::string& path, const std::string& sql)
{
    conclave::SqliteDb db;
    if (db.open(path, conclave::SqliteDb::Mode::ReadOnly))
        return -1;
    return db.queryInt(sql).value_or(-1);
}

// One text from a query on the file; "" when there is none.
inline QString text(const std::string& path, const std::string& sql)
{
    conclave::SqliteDb db;
    if (db.open(path, conclave::SqliteDb::Mode::ReadOnly))
        return {};
    auto s = db.prepare(sql);
    return s.valid() && s.step() ? QString::fromStdString(s.text(0)) : QString();
}

// Rows of every table, for "nothing changed" and "everything was copied".
inline QString census(const std::string& path)
{
    QStringList out;
    for (const char* table : {"experiments", "trials", "runs", "spans", "span_text", "node_results"})
        out << QString("%1=%2").arg(table).arg(rows(path, std::string("SELECT count(*) FROM ") + table));
    return out.join(' ');
}

} // namespace testsupport
