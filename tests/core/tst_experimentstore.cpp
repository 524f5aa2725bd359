// RunStore's experiments: schema 3 (and the migration from 2), experiments and
// trials read back exactly, trial runs hidden from run lists and protected from
// remove and prune, an experiment deleted with everything of it, experiments of
// a dead process marked interrupted, and shards merged into one store: the
// union, idempotent, refused (both files unchanged) when the specs differ.
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include "support/QtStrings.h"

#undef emit

#include "support/StoreRows.h"

#include "conclave/bench/BenchTeams.h"
#include "conclave/store/ProcessIdentity.h"
#include "conclave/store/RunStore.h"
#include "conclave/store/SqliteDb.h"
#include "conclave/store/StoreSchema.h"

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

using namespace conclave;
using namespace std::chrono_literals;
using namespace testsupport;

class TestExperimentStore : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

    std::string file(const std::string& name) const { return m_dir.path().toStdString() + "/" + name; }

    // A shard: experiment `id` with `spec`, and one trial (with its run) per (design, task).
    void makeShard(const std::string& path, const std::string& id, const std::string& spec,
                   const std::vector<std::pair<int, std::string>>& trials)
    {
        auto opened = RunStore::open(path);
        QVERIFY(opened.store);
        QVERIFY(!opened.store->saveExperiment(experimentRecord(id, spec)));
        for (const auto& [design, task] : trials) {
            const auto run = storeRun(*opened.store, id);
            QVERIFY(!run.str().empty());
            opened.store->addTrial(trialRecord(id, design, task, 1, run));
        }
        QCOMPARE(q(opened.store->flushTrials().value_or("")), QString());
    }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void migratesAVersion2File()
    {
        const auto path = file("v2.sqlite");
        {
            SqliteDb db;
            QVERIFY(!db.open(path, SqliteDb::Mode::Create));
            QVERIFY(!StoreSchema::migrate(db, 2));
            QVERIFY(!db.exec("INSERT INTO runs (id, team_name, team_json, input, seed, status, started_at_ms) "
                             "VALUES ('00000000000a', 'old', '{}', 'q', 1, 'ok', 5)"));
            QCOMPARE(db.queryInt("PRAGMA user_version").value_or(-1), int64_t(2));
        }
        auto opened = RunStore::open(path);
        QCOMPARE(q(opened.error), QString());
        QCOMPARE(rows(path, "PRAGMA user_version"), int64_t(7));
        QCOMPARE(rows(path, "SELECT count(*) FROM runs WHERE experiment_id IS NULL"), int64_t(1));
        QCOMPARE(rows(path, "SELECT count(*) FROM experiments"), int64_t(0));
        QCOMPARE(rows(path, "SELECT count(*) FROM trials"), int64_t(0));
        QCOMPARE(rows(path, "SELECT count(*) FROM sqlite_master WHERE name = 'runs_by_experiment'"), int64_t(1));
        std::string error;
        auto reader = opened.store->reader(error);
        const auto runs = reader->list({}, error);
        QVERIFY(runs);
        QCOMPARE(runs->size(), size_t(1));
        QCOMPARE(q(runs->front().teamName), QString("old"));
        QCOMPARE(q(runs->front().experimentId), QString());
        // A trial can be stored in the migrated file.
        QVERIFY(!storeRun(*opened.store, "e-1").str().empty());
        QCOMPARE(rows(path, "SELECT count(*) FROM runs WHERE experiment_id = 'e-1'"), int64_t(1));
    }

    // Version 3 to 4: spans gain a note, node results what a skipped model call left; what was stored reads
    // as before (no note, the model called).
    void migratesAVersion3File()
    {
        const auto path = file("v3.sqlite");
        {
            SqliteDb db;
            QVERIFY(!db.open(path, SqliteDb::Mode::Create));
            QVERIFY(!StoreSchema::migrate(db, 3));
            QVERIFY(!db.exec("INSERT INTO runs (id, team_name, team_json, input, seed, status, started_at_ms) "
                             "VALUES ('00000000000b', 'old', '{}', 'q', 1, 'ok', 5);"
                             "INSERT INTO spans (run_id, id, node, kind, name, start_us, end_us, status) "
                             "VALUES ('00000000000b', 1, 'j', 'node', 'j', 0, 10, 'ok');"
                             "INSERT INTO node_results (run_id, node, status, text, answer) "
                             "VALUES ('00000000000b', 'j', 'ok', 't', 'a')"));
        }
        auto opened = RunStore::open(path);
        QCOMPARE(q(opened.error), QString());
        QCOMPARE(rows(path, "PRAGMA user_version"), int64_t(7));
        QCOMPARE(rows(path, "SELECT count(*) FROM spans WHERE note IS NULL"), int64_t(1));
        QCOMPARE(rows(path, "SELECT count(*) FROM node_results WHERE skipped_model IS NULL AND agreed IS NULL"),
                 int64_t(1));
        std::string error;
        auto reader = opened.store->reader(error);
        const auto run = reader->load(RunId("00000000000b"), false, error);
        QVERIFY2(run, error.c_str());
        QCOMPARE(run->spans.size(), size_t(1));
        QCOMPARE(q(run->spans.front().note), QString());
        QCOMPARE(run->nodes.size(), size_t(1));
        QCOMPARE(q(run->nodes.front().result.skippedModel), QString());
        QVERIFY(run->nodes.front().result.agreed.empty());
    }

    // Version 4 to 5: trials keep their runs (run_id may now be NULL), experiments gain
    // spent_usd (what their stored trials cost), the store a random id of its own.
    void migratesAVersion4File()
    {
        const auto path = file("v4.sqlite");
        {
            SqliteDb db;
            QVERIFY(!db.open(path, SqliteDb::Mode::Create));
            QVERIFY(!StoreSchema::migrate(db, 4));
            QVERIFY(!db.exec("INSERT INTO experiments (id, name, status, spec_json, started_at_ms) "
                             "VALUES ('e-old', 'old', 'interrupted', '{}', 5), ('e-none', 'none', 'finished', '{}', 6);"
                             "INSERT INTO trials (experiment_id, design, design_name, task, seed, run_id, status, "
                             "cost_usd, judge_cost_usd) VALUES "
                             "('e-old', 0, 'gate', 't1', 1, '00000000000a', 'ok', 0.25, 0.125), "
                             "('e-old', 0, 'gate', 't2', 1, '00000000000b', 'ok', 0.5, 0)"));
        }
        auto opened = RunStore::open(path);
        QCOMPARE(q(opened.error), QString());
        QCOMPARE(rows(path, "PRAGMA user_version"), int64_t(7));
        QCOMPARE(rows(path, "SELECT count(*) FROM trials WHERE run_id IS NOT NULL"), int64_t(2));
        QCOMPARE(rows(path, "SELECT count(*) FROM store_identity"), int64_t(1));
        QVERIFY2(QRegularExpression("^[0-9a-f]{32}$").match(text(path, "SELECT id FROM store_identity")).hasMatch(),
                 qPrintable(text(path, "SELECT id FROM store_identity")));
        std::string error;
        auto reader = opened.store->reader(error);
        QCOMPARE(reader->experiment("e-old", error)->spentUsd, 0.875);
        QCOMPARE(reader->experiment("e-none", error)->spentUsd, 0.0);
        const auto trials = reader->trials("e-old", error);
        QVERIFY2(trials, error.c_str());
        QCOMPARE(trials->size(), size_t(2));
        QCOMPARE(q(trials->at(0).runId.str()), QString("00000000000a"));
        QCOMPARE(trials->at(1).costUsd, 0.5);
        // A trial without a run can be stored in the migrated file.
        opened.store->addTrial(trialRecord("e-old", 0, "t3", 1, RunId()));
        QCOMPARE(q(opened.store->flushTrials().value_or("")), QString());
        QCOMPARE(rows(path, "SELECT count(*) FROM trials WHERE run_id IS NULL"), int64_t(1));
    }

    // eval --store summaries: trial rows with no run read back, export, and go with their experiment.
    void trialsWithoutRuns()
    {
        const auto path = file("summaries.sqlite");
        auto opened = RunStore::open(path);
        QVERIFY(opened.store);
        auto& store = *opened.store;
        QVERIFY(!store.saveExperiment(experimentRecord("e-sum")));
        store.addTrial(trialRecord("e-sum", 0, "t1", 1, RunId()));
        store.addTrial(trialRecord("e-sum", 1, "t1", 1, RunId()));
        store.addTrial(trialRecord("e-sum", 1, "t2", 1, storeRun(store, "e-sum")));
        QCOMPARE(q(store.flushTrials().value_or("")), QString());
        QCOMPARE(rows(path, "SELECT count(*) FROM trials WHERE run_id IS NULL"), int64_t(2));
        std::string error;
        auto reader = store.reader(error);
        const auto trials = reader->trials("e-sum", error);
        QVERIFY2(trials, error.c_str());
        QStringList runs;
        for (const auto& t : *trials)
            runs << QString("%1/%2:%3").arg(t.design).arg(q(t.task)).arg(t.runId.empty() ? "none" : "run");
        QCOMPARE(runs, QStringList({"0/t1:none", "1/t1:none", "1/t2:run"}));
        QCOMPARE(reader->experiment("e-sum", error)->storedTrials, int64_t(3));
        const auto deleted = store.removeExperiment("e-sum");
        QCOMPARE(q(deleted.error), QString());
        QCOMPARE(deleted.count, 1);
        QCOMPARE(census(path), QString("experiments=0 trials=0 runs=0 spans=0 span_text=0 node_results=0"));
    }

    void spentUsdReadsBack()
    {
        const auto path = file("spent.sqlite");
        auto opened = RunStore::open(path);
        QVERIFY(opened.store);
        auto experiment = experimentRecord("e-spent");
        experiment.spentUsd = 0.75;
        QVERIFY(!opened.store->saveExperiment(experiment));
        QVERIFY(!opened.store->flushTrials());
        std::string error;
        auto reader = opened.store->reader(error);
        QCOMPARE(reader->experiment("e-spent", error)->spentUsd, 0.75);
        experiment.spentUsd = 1.5; // a resume adds what it spent
        QVERIFY(!opened.store->saveExperiment(experiment));
        QVERIFY(!opened.store->flushTrials());
        QCOMPARE(reader->experiment("e-spent", error)->spentUsd, 1.5);
        QCOMPARE(reader->experiments(error)->front().spentUsd, 1.5);
    }

    // A batch the writer cannot commit is tried again, then given up: flushTrials says
    // why and lostTrials() counts its trial rows. Commits fail for real, by a trigger
    // made on a connection of the test's own.
    void aBatchThatNeverCommitsIsCounted()
    {
        const auto path = file("lost.sqlite");
        RunStore::Options options;
        options.writer.maxDelay = 10min; // only a flush commits: the batches are exactly what is added between
        options.writer.retryBackoff = 1ms;
        auto opened = RunStore::open(path, options);
        QVERIFY(opened.store);
        auto& store = *opened.store;
        {
            SqliteDb db;
            QVERIFY(!db.open(path, SqliteDb::Mode::ReadWrite));
            QVERIFY(!db.exec("CREATE TRIGGER fail_seed_3 BEFORE INSERT ON trials WHEN NEW.seed = 3 "
                             "BEGIN SELECT RAISE(ABORT, 'injected'); END"));
        }
        store.addTrial(trialRecord("e-lost", 0, "t1", 1, RunId()));
        store.addTrial(trialRecord("e-lost", 0, "t1", 2, RunId()));
        QCOMPARE(q(store.flushTrials().value_or("")), QString());
        QCOMPARE(store.lostTrials(), int64_t(0));
        // One bad row: its whole batch (three trials) is lost, after every attempt.
        store.addTrial(trialRecord("e-lost", 0, "t2", 1, RunId()));
        store.addTrial(trialRecord("e-lost", 0, "t2", 3, RunId()));
        store.addTrial(trialRecord("e-lost", 0, "t2", 4, RunId()));
        QCOMPARE(q(store.flushTrials().value_or("")), q(path + ": injected"));
        QCOMPARE(store.lostTrials(), int64_t(3));
        QCOMPARE(rows(path, "SELECT count(*) FROM trials"), int64_t(2));
        // Later batches are still written; the count and the first error stay.
        store.addTrial(trialRecord("e-lost", 0, "t3", 1, RunId()));
        QCOMPARE(q(store.flushTrials().value_or("")), q(path + ": injected"));
        QCOMPARE(store.lostTrials(), int64_t(3));
        QCOMPARE(rows(path, "SELECT count(*) FROM trials"), int64_t(3));
    }

    // A commit that fails for a while (a trigger that refuses until a moment the retries
    // outlast: attempts at 0, 200, 600, 1400 ms and later, refusals until 1000 ms) is stored.
    void aBatchThatFailsForAWhileIsRetried()
    {
        const auto path = file("retried.sqlite");
        RunStore::Options options;
        options.writer.maxDelay = 10min;
        options.writer.commitAttempts = 6;
        options.writer.retryBackoff = 200ms;
        auto opened = RunStore::open(path, options);
        QVERIFY(opened.store);
        auto& store = *opened.store;
        auto run = storeRun(store, "e-retry");
        QVERIFY(!run.empty());
        store.addTrial(trialRecord("e-retry", 0, "t1", 1, run));
        {
            SqliteDb db;
            QVERIFY(!db.open(path, SqliteDb::Mode::ReadWrite));
            QVERIFY(!db.exec("CREATE TABLE refuse_until (day REAL); "
                             "INSERT INTO refuse_until VALUES (julianday('now') + 1.0 / 86400); "
                             "CREATE TRIGGER refuse_for_a_while BEFORE INSERT ON trials "
                             "WHEN julianday('now') < (SELECT day FROM refuse_until) "
                             "BEGIN SELECT RAISE(ABORT, 'busy for a while'); END"));
        }
        QCOMPARE(q(store.flushTrials().value_or("")), QString());
        QCOMPARE(store.lostTrials(), int64_t(0));
        QCOMPARE(rows(path, "SELECT count(*) FROM trials"), int64_t(1));
    }

    // The writer starts on first use, from whichever thread gets there first: once.
    void theWriterStartsOnceFromAnyThread()
    {
        const auto path = file("threads.sqlite");
        auto opened = RunStore::open(path);
        QVERIFY(opened.store);
        auto& store = *opened.store;
        std::vector<std::thread> threads;
        std::atomic<int> failures{0};
        for (int i = 0; i < 8; ++i) {
            threads.emplace_back([&, i] {
                if (i % 2 == 0) {
                    if (storeRun(store, "").empty())
                        ++failures;
                } else {
                    store.addTrial(trialRecord("e-threads", 0, "t" + std::to_string(i), 1, RunId()));
                    if (store.saveExperiment(experimentRecord("e-threads")))
                        ++failures;
                }
            });
        }
        for (auto& t : threads)
            t.join();
        QCOMPARE(failures.load(), 0);
        QCOMPARE(q(store.flushTrials().value_or("")), QString());
        QCOMPARE(store.lostTrials(), int64_t(0));
        QCOMPARE(census(path), QString("experiments=1 trials=4 runs=4 spans=8 span_text=4 node_results=4"));
    }

    void refusesANewerFile()
    {
        const auto path = file("v8.sqlite");
        {
            SqliteDb db;
            QVERIFY(!db.open(path, SqliteDb::Mode::Create));
            QVERIFY(!StoreSchema::migrate(db));
            QVERIFY(!db.exec("PRAGMA user_version = 8"));
        }
        const auto before = readBytes(path);
        const auto newer = path + ": written by a newer Conclave (store schema version 8; this one reads up to 7)";
        QCOMPARE(q(RunStore::open(path).error), q(newer));
        QCOMPARE(q(RunStore::openForReading(path).error), q(newer));
        QVERIFY(readBytes(path) == before);
    }

    void experimentAndTrialsReadBackExactly()
    {
        const auto path = file("roundtrip.sqlite");
        RunStore::Options options;
        options.writer.maxDelay = 10min; // only a flush commits
        auto opened = RunStore::open(path, options);
        QVERIFY(opened.store);
        auto& store = *opened.store;
        const auto saved = experimentRecord("e-abc123");
        QVERIFY(!store.saveExperiment(saved));
        // Queued for the writer thread, not written on the caller's.
        QCOMPARE(rows(path, "SELECT count(*) FROM experiments"), int64_t(0));
        auto unscored = trialRecord("e-abc123", 1, "t1", 7, RunId("00000000000b"));
        unscored.correct.reset();
        unscored.status = RunStatus::Failed;
        unscored.agents.clear();
        // Added out of order; read back in (design, task, seed) order.
        store.addTrial(trialRecord("e-abc123", 1, "t2", 1, RunId("00000000000c")));
        store.addTrial(unscored);
        store.addTrial(trialRecord("e-abc123", 0, "t2", 9, RunId("00000000000d")));
        store.addTrial(trialRecord("e-abc123", 0, "t2", 3, RunId("00000000000e")));
        QCOMPARE(q(store.flushTrials().value_or("")), QString());
        QVERIFY(!store.saveExperiment(experimentRecord("e-abd000")));
        store.flush();

        std::string error;
        auto reader = store.reader(error);
        const auto read = reader->experiment("e-abc", error);
        QVERIFY2(read, error.c_str());
        QCOMPARE(q(read->id), q(saved.id));
        QCOMPARE(q(read->name), q(saved.name));
        QVERIFY(read->status == ExperimentStatus::Finished);
        QCOMPARE(q(read->specJson), q(saved.specJson));
        QCOMPARE(toQt(read->designs), QStringList({"gate", "panel"}));
        QCOMPARE(q(read->taskset), QString("arith-20"));
        QCOMPARE(read->plannedTrials, int64_t(4));
        QCOMPARE(read->storedTrials, int64_t(4));
        QCOMPARE(read->startedAtMs, int64_t(1700000000123));
        QCOMPARE(read->endedAtMs, int64_t(1700000009876));
        QCOMPARE(q(read->note), QString("--max-cost 0.50 reached"));

        QVERIFY(!reader->experiment("e-ab", error));
        QCOMPARE(q(error), QString("\"e-ab\" names more than one experiment; give more of the id"));
        QVERIFY(!reader->experiment("e-x", error));
        QCOMPARE(q(error), QString("no experiment \"e-x\""));

        const auto trials = reader->trials("e-abc123", error);
        QVERIFY(trials);
        QStringList order;
        for (const auto& t : *trials)
            order << QString("%1/%2/%3").arg(t.design).arg(q(t.task)).arg(t.seed);
        QCOMPARE(order, QStringList({"0/t2/3", "0/t2/9", "1/t1/7", "1/t2/1"}));
        const auto& t = trials->at(0);
        QCOMPARE(q(t.experimentId), QString("e-abc123"));
        QCOMPARE(q(t.designName), QString("gate"));
        QCOMPARE(q(t.domain), QString("math"));
        QCOMPARE(q(t.runId.str()), QString("00000000000e"));
        QVERIFY(t.status == RunStatus::Partial);
        QCOMPARE(q(t.answer), QString("42"));
        QCOMPARE(q(t.expected), QString("42"));
        QCOMPARE(t.correct, std::optional<bool>(true));
        QCOMPARE(q(t.scoreDetail), QString("numeric ±0.01"));
        QCOMPARE(t.wallUs, int64_t(120000));
        QCOMPARE(t.criticalPathUs, int64_t(90000));
        QCOMPARE(t.costUsd, 0.25);
        QCOMPARE(t.judgeCostUsd, 0.125);
        QCOMPARE(t.tokens, int64_t(812));
        QCOMPARE(t.calls, 3);
        QCOMPARE(t.agents.size(), size_t(2));
        QCOMPARE(q(t.agents[0].node), QString("a"));
        QCOMPARE(t.agents[0].onCriticalPath, true);
        QCOMPARE(t.agents[0].costUsd, 0.125);
        QCOMPARE(t.agents[0].wallUs, int64_t(4000));
        QCOMPARE(t.agents[0].ran, true);
        QCOMPARE(t.agents[0].attemptsUs, (std::vector<int64_t>{3000, 1000}));
        QCOMPARE(q(t.agents[1].node), QString("b"));
        QCOMPARE(t.agents[1].onCriticalPath, false);
        QCOMPARE(t.agents[1].ran, false);
        const auto& u = trials->at(2);
        QCOMPARE(u.correct, std::optional<bool>());
        QVERIFY(u.status == RunStatus::Failed);
        QCOMPARE(u.agents.size(), size_t(0));
        QCOMPARE(u.seed, uint64_t(7));

        // The list: newest first, trials counted, specs left out.
        const auto list = reader->experiments(error);
        QVERIFY(list);
        QCOMPARE(list->size(), size_t(2));
        QCOMPARE(q(list->at(0).id), QString("e-abd000"));
        QCOMPARE(list->at(0).storedTrials, int64_t(0));
        QCOMPARE(q(list->at(1).id), QString("e-abc123"));
        QCOMPARE(list->at(1).storedTrials, int64_t(4));
        QCOMPARE(q(list->at(1).specJson), QString());

        // A second save changes what a run of it changes, never its spec or start.
        auto resaved = experimentRecord("e-abc123", R"({"other":true})");
        resaved.name = "renamed";
        resaved.status = ExperimentStatus::Running;
        resaved.startedAtMs = 5;
        resaved.endedAtMs = -1;
        resaved.plannedTrials = 8;
        resaved.note = "";
        QVERIFY(!store.saveExperiment(resaved));
        store.flush();
        const auto again = reader->experiment("e-abc123", error);
        QCOMPARE(q(again->name), QString("renamed"));
        QVERIFY(again->status == ExperimentStatus::Running);
        QCOMPARE(q(again->specJson), q(saved.specJson));
        QCOMPARE(again->startedAtMs, int64_t(1700000000123));
        QCOMPARE(again->endedAtMs, int64_t(-1));
        QCOMPARE(again->plannedTrials, int64_t(8));
        QCOMPARE(q(again->note), QString());

        // A replaced trial: same key, new values.
        auto replaced = trialRecord("e-abc123", 0, "t2", 3, RunId("00000000000f"));
        replaced.correct = false;
        store.addTrial(replaced);
        QCOMPARE(q(store.flushTrials().value_or("")), QString());
        const auto after = reader->trials("e-abc123", error);
        QCOMPARE(after->size(), size_t(4));
        QCOMPARE(q(after->at(0).runId.str()), QString("00000000000f"));
        QCOMPARE(after->at(0).correct, std::optional<bool>(false));

        QCOMPARE(q(store.saveExperiment(experimentRecord("")).value_or("")), q(path + ": an experiment needs an id"));
    }

    // The writer stores a trial with or after the run it was queued after: a
    // reader polling all along never sees a trial whose run has not ended.
    void aTrialIsNeverStoredBeforeItsRun()
    {
        const auto path = file("order.sqlite");
        RunStore::Options options;
        options.writer.maxDelay = 1ms;
        auto opened = RunStore::open(path, options);
        QVERIFY(opened.store);
        auto& store = *opened.store;
        std::atomic<bool> done{false};
        std::atomic<int64_t> early{0}, polls{0};
        std::thread reader([&] {
            SqliteDb db;
            if (db.open(path, SqliteDb::Mode::ReadOnly))
                return;
            while (!done.load()) {
                early += db.queryInt("SELECT count(*) FROM trials t WHERE NOT EXISTS (SELECT 1 FROM runs r "
                                     "WHERE r.id = t.run_id AND r.status = 'ok')")
                             .value_or(0);
                ++polls;
            }
        });
        std::vector<std::unique_ptr<RunRecorder>> recorders;
        std::string error;
        for (int i = 0; i < 300; ++i) {
            auto recorder = store.record(BenchTeams::fanOut(2, 1), error, "e-order");
            QVERIFY(recorder);
            recorder->runStarted("q", 1, ClockKind::Real);
            RunResult result;
            result.status = RunStatus::Ok;
            recorder->runFinished(result);
            store.addTrial(trialRecord("e-order", 0, "t" + std::to_string(i), 1, recorder->id()));
            recorders.push_back(std::move(recorder));
        }
        QVERIFY(!store.flushTrials());
        done = true;
        reader.join();
        QVERIFY(polls.load() > 0);
        QCOMPARE(early.load(), int64_t(0));
        QCOMPARE(rows(path, "SELECT count(*) FROM trials"), int64_t(300));
    }

    void trialRunsAreHiddenAndProtected()
    {
        const auto path = file("hidden.sqlite");
        auto opened = RunStore::open(path);
        QVERIFY(opened.store);
        auto& store = *opened.store;
        const auto plain1 = storeRun(store, "");
        const auto trial1 = storeRun(store, "e-777");
        const auto trial2 = storeRun(store, "e-777");
        const auto plain2 = storeRun(store, "");
        std::string error;
        auto reader = store.reader(error);
        RunFilter filter;
        const auto listed = reader->list(filter, error);
        QCOMPARE(listed->size(), size_t(2));
        QCOMPARE(q(listed->at(0).id.str()), q(plain2.str()));
        QCOMPARE(q(listed->at(1).id.str()), q(plain1.str()));
        QCOMPARE(reader->count(filter, error).value_or(-1), int64_t(2));
        filter.includeTrials = true;
        const auto all = reader->list(filter, error);
        QCOMPARE(all->size(), size_t(4));
        QCOMPARE(q(all->at(1).id.str()), q(trial2.str()));
        QCOMPARE(q(all->at(1).experimentId), QString("e-777"));
        QCOMPARE(q(all->at(0).experimentId), QString());
        QCOMPARE(reader->count(filter, error).value_or(-1), int64_t(4));
        QCOMPARE(q(reader->load(trial1, false, error)->summary.experimentId), QString("e-777"));

        // remove refuses the whole request, deleting nothing.
        const auto refused = store.remove({plain1, trial1});
        QCOMPARE(refused.count, 0);
        QCOMPARE(q(refused.error), q("run " + trial1.str() +
                                     " belongs to experiment e-777; delete the experiment instead "
                                     "(conclave experiments delete e-777)"));
        QCOMPARE(reader->count(filter, error).value_or(-1), int64_t(4));

        // prune neither counts nor removes trials: keeping 1 deletes the older plain run only.
        const auto pruned = store.prune(1);
        QCOMPARE(q(pruned.error), QString());
        QCOMPARE(pruned.count, 1);
        QCOMPARE(reader->count(filter, error).value_or(-1), int64_t(3));
        QCOMPARE(reader->count({}, error).value_or(-1), int64_t(1));
        QCOMPARE(store.prune(0).count, 1);
        QCOMPARE(reader->count(filter, error).value_or(-1), int64_t(2));
        QCOMPARE(rows(path, "SELECT count(DISTINCT run_id) FROM spans"), int64_t(2));
    }

    void removeExperimentRemovesEverything()
    {
        const auto path = file("remove.sqlite");
        auto opened = RunStore::open(path);
        QVERIFY(opened.store);
        auto& store = *opened.store;
        auto experiment = experimentRecord("e-del");
        QVERIFY(!store.saveExperiment(experiment));
        for (const char* task : {"t1", "t2", "t3"})
            store.addTrial(trialRecord("e-del", 0, task, 1, storeRun(store, "e-del")));
        const auto plain = storeRun(store, "");
        QVERIFY(!store.flushTrials());
        QCOMPARE(census(path), QString("experiments=1 trials=3 runs=4 spans=8 span_text=4 node_results=4"));

        const auto deleted = store.removeExperiment("e-del");
        QCOMPARE(q(deleted.error), QString());
        QCOMPARE(deleted.count, 3);
        QCOMPARE(census(path), QString("experiments=0 trials=0 runs=1 spans=2 span_text=1 node_results=1"));
        QCOMPARE(rows(path, "SELECT count(*) FROM runs WHERE id = '" + plain.str() + "'"), int64_t(1));

        const auto unknown = store.removeExperiment("e-del");
        QCOMPARE(unknown.count, 0);
        QCOMPARE(q(unknown.error), QString("no experiment \"e-del\""));

        // One that this (live) process is running is refused.
        experiment.id = "e-live";
        experiment.status = ExperimentStatus::Running;
        QVERIFY(!store.saveExperiment(experiment));
        const auto self = ProcessIdentity::current();
        const auto live = store.removeExperiment("e-live");
        QCOMPARE(live.count, 0);
        QCOMPARE(q(live.error), q("experiment e-live is still running (process " + std::to_string(self.pid) + " on " +
                                  self.host + "); stop it before deleting it"));
        QCOMPARE(rows(path, "SELECT count(*) FROM experiments"), int64_t(1));
    }

    void experimentOfADeadProcessIsInterruptedOnOpen()
    {
        const auto path = file("dead.sqlite");
        {
            auto opened = RunStore::open(path);
            QVERIFY(opened.store);
            auto running = experimentRecord("e-dead");
            running.status = ExperimentStatus::Running;
            running.endedAtMs = -1;
            running.note = "";
            QVERIFY(!opened.store->saveExperiment(running));
            running.id = "e-alive";
            QVERIFY(!opened.store->saveExperiment(running));
            QVERIFY(!storeRun(*opened.store, "e-dead").str().empty());
            QVERIFY(!opened.store->flushTrials());
        }
        // The process that wrote e-dead is gone: its start time no longer matches.
        {
            SqliteDb db;
            QVERIFY(!db.open(path, SqliteDb::Mode::ReadWrite));
            QVERIFY(!db.exec("UPDATE experiments SET pid_start = -5 WHERE id = 'e-dead'"));
        }
        const auto lastRunEnd = rows(path, "SELECT ended_at_ms FROM runs WHERE experiment_id = 'e-dead'");
        auto again = RunStore::open(path);
        QVERIFY(again.store);
        QCOMPARE(again.store->recoveredExperiments(), 1);
        std::string error;
        auto reader = again.store->reader(error);
        const auto dead = reader->experiment("e-dead", error);
        QVERIFY(dead->status == ExperimentStatus::Interrupted);
        QCOMPARE(q(dead->note), QString("the process running it ended before it finished"));
        QCOMPARE(dead->endedAtMs, lastRunEnd);
        QVERIFY(reader->experiment("e-alive", error)->status == ExperimentStatus::Running);
        QCOMPARE(RunStore::open(path).store->recoveredExperiments(), 0);
    }

    // Opened for reading, the same experiment reads as interrupted, and the file still says running.
    void aDeadWritersExperimentReadsInterruptedWithoutAWrite()
    {
        const auto path = file("dead-read.sqlite");
        {
            auto opened = RunStore::open(path);
            QVERIFY(opened.store);
            auto running = experimentRecord("e-gone");
            running.status = ExperimentStatus::Running;
            running.endedAtMs = -1;
            running.note = "";
            QVERIFY(!opened.store->saveExperiment(running));
            running.id = "e-here";
            QVERIFY(!opened.store->saveExperiment(running));
            QVERIFY(!opened.store->flushTrials());
        }
        {
            SqliteDb db;
            QVERIFY(!db.open(path, SqliteDb::Mode::ReadWrite));
            QVERIFY(!db.exec("UPDATE experiments SET pid_start = -5 WHERE id = 'e-gone'"));
        }
        auto opened = RunStore::openForReading(path);
        QVERIFY2(opened.store, opened.error.c_str());
        QCOMPARE(opened.store->recoveredExperiments(), 0);
        std::string error;
        auto reader = opened.store->reader(error);
        const auto gone = reader->experiment("e-gone", error);
        QVERIFY(gone->status == ExperimentStatus::Interrupted);
        QCOMPARE(q(gone->note), QString("the process running it ended before it finished"));
        QVERIFY(reader->experiment("e-here", error)->status == ExperimentStatus::Running);
        QStringList listed;
        const auto experiments = reader->experiments(error);
        QVERIFY2(experiments, error.c_str());
        for (const auto& e : *experiments)
            listed << q(e.id) + "=" + q(toString(e.status));
        listed.sort();
        QCOMPARE(listed, QStringList({"e-gone=interrupted", "e-here=running"}));
        QCOMPARE(text(path, "SELECT status || '/' || note FROM experiments WHERE id = 'e-gone'"), QString("running/"));
        // Writes are refused, nothing queued.
        QCOMPARE(q(opened.store->saveExperiment(experimentRecord("e-new")).value_or("")),
                 q(path + ": opened for reading only"));
        opened.store->addTrial(trialRecord("e-gone", 0, "t1", 1, RunId()));
        QCOMPARE(q(opened.store->flushTrials().value_or("")), q(path + ": opened for reading only"));
        QCOMPARE(opened.store->lostTrials(), int64_t(1));
        QCOMPARE(q(opened.store->removeExperiment("e-gone").error), q(path + ": opened for reading only"));
        QCOMPARE(q(opened.store->mergeFrom(file("dead.sqlite")).error), q(path + ": opened for reading only"));
        QCOMPARE(census(path), QString("experiments=2 trials=0 runs=0 spans=0 span_text=0 node_results=0"));
    }

    void shardsMergeIntoTheirUnion()
    {
        const auto shard1 = file("shard1.sqlite");
        const auto shard2 = file("shard2.sqlite");
        const auto merged = file("merged.sqlite");
        const std::string spec = R"({"designs":["gate","panel"]})";
        makeShard(shard1, "e-m", spec, {{0, "t1"}, {0, "t2"}});
        makeShard(shard2, "e-m", spec, {{1, "t1"}, {1, "t2"}});
        const auto bytes1 = readBytes(shard1);
        const auto bytes2 = readBytes(shard2);
        auto opened = RunStore::open(merged);
        QVERIFY(opened.store);
        auto& store = *opened.store;

        const auto first = store.mergeFrom(shard1);
        QCOMPARE(q(first.error), QString());
        QCOMPARE(first.experiments, 1);
        QCOMPARE(first.trials, 2);
        QCOMPARE(first.runs, 2);
        std::string error;
        auto reader = store.reader(error);
        // Two of four planned trials: not finished yet.
        QVERIFY(reader->experiment("e-m", error)->status == ExperimentStatus::Interrupted);

        const auto second = store.mergeFrom(shard2);
        QCOMPARE(q(second.error), QString());
        QCOMPARE(second.trials, 2);
        QCOMPARE(second.runs, 2);
        const auto whole = reader->experiment("e-m", error);
        QVERIFY(whole->status == ExperimentStatus::Finished);
        QCOMPARE(whole->storedTrials, int64_t(4));
        QCOMPARE(q(whole->note), QString());
        QCOMPARE(q(whole->specJson), q(spec));
        QStringList keys;
        const auto trials = reader->trials("e-m", error);
        QVERIFY(trials);
        for (const auto& t : *trials)
            keys << QString("%1/%2").arg(t.design).arg(q(t.task));
        QCOMPARE(keys, QStringList({"0/t1", "0/t2", "1/t1", "1/t2"}));
        const auto union_ = QString("experiments=1 trials=4 runs=4 spans=8 span_text=4 node_results=4");
        QCOMPARE(census(merged), union_);
        // Every trial's run came along.
        QCOMPARE(rows(merged, "SELECT count(*) FROM trials t JOIN runs r ON r.id = t.run_id "
                              "WHERE r.experiment_id = 'e-m'"),
                 int64_t(4));

        // Merging a shard again adds nothing.
        const auto repeat = store.mergeFrom(shard1);
        QCOMPARE(q(repeat.error), QString());
        QCOMPARE(repeat.trials, 0);
        QCOMPARE(repeat.runs, 0);
        QCOMPARE(census(merged), union_);
        QVERIFY(reader->experiment("e-m", error)->status == ExperimentStatus::Finished);

        // The shards were only read.
        QVERIFY(readBytes(shard1) == bytes1);
        QVERIFY(readBytes(shard2) == bytes2);
        QVERIFY(!std::filesystem::exists(shard1 + "-wal"));
        QVERIFY(!std::filesystem::exists(shard1 + "-shm"));
    }

    // A shard still open in another store (its WAL beside it) is read through its WAL.
    void aShardBeingWrittenMerges()
    {
        const auto shard = file("open-shard.sqlite");
        const auto into = file("open-into.sqlite");
        auto writing = RunStore::open(shard);
        QVERIFY(writing.store);
        QVERIFY(!writing.store->saveExperiment(experimentRecord("e-w")));
        writing.store->addTrial(trialRecord("e-w", 0, "t1", 1, storeRun(*writing.store, "e-w")));
        QVERIFY(!writing.store->flushTrials());
        QVERIFY(std::filesystem::exists(shard + "-wal"));
        auto opened = RunStore::open(into);
        QVERIFY(opened.store);
        const auto merged = opened.store->mergeFrom(shard);
        QCOMPARE(q(merged.error), QString());
        QCOMPARE(merged.trials, 1);
        QCOMPARE(merged.runs, 1);
        // The shard's own store carries on.
        writing.store->addTrial(trialRecord("e-w", 0, "t2", 1, storeRun(*writing.store, "e-w")));
        QCOMPARE(q(writing.store->flushTrials().value_or("")), QString());
        QCOMPARE(rows(shard, "SELECT count(*) FROM trials"), int64_t(2));
    }

    void mergeRefusesADifferentSpec()
    {
        const auto mine = file("mine.sqlite");
        const auto theirs = file("theirs.sqlite");
        makeShard(mine, "e-s", R"({"seeds":[1]})", {{0, "t1"}});
        makeShard(theirs, "e-s", R"({"seeds":[2]})", {{0, "t2"}});
        const auto mineBytes = readBytes(mine);
        const auto theirBytes = readBytes(theirs);
        {
            auto opened = RunStore::open(mine);
            QVERIFY(opened.store);
            const auto merged = opened.store->mergeFrom(theirs);
            QCOMPARE(q(merged.error), q(theirs + ": experiment e-s has a different spec than the one in " + mine +
                                        "; shards of one experiment must be run with the same designs, task set, "
                                        "seeds and scorer"));
            QCOMPARE(merged.trials, 0);
            QCOMPARE(merged.runs, 0);
            QCOMPARE(census(mine), QString("experiments=1 trials=1 runs=1 spans=2 span_text=1 node_results=1"));
        }
        QVERIFY(readBytes(mine) == mineBytes);
        QVERIFY(readBytes(theirs) == theirBytes);
    }

    void mergeRefusesFilesThatAreNotShards()
    {
        const auto into = file("into.sqlite");
        const auto text = file("notes.txt");
        const auto old = file("old.sqlite");
        const auto missing = file("missing.sqlite");
        {
            std::ofstream out(text);
            out << "not a database at all";
        }
        {
            SqliteDb db;
            QVERIFY(!db.open(old, SqliteDb::Mode::Create));
            QVERIFY(!StoreSchema::migrate(db, 2));
        }
        auto opened = RunStore::open(into);
        QVERIFY(opened.store);
        auto& store = *opened.store;
        QCOMPARE(q(store.mergeFrom(text).error), q(text + ": not an SQLite database"));
        QCOMPARE(q(store.mergeFrom(old).error),
                 q(old + ": a run store from before experiments (store schema version 2), so it holds none"));
        QCOMPARE(q(store.mergeFrom(missing).error), q(missing + ": no such file"));
        QCOMPARE(q(store.mergeFrom(into).error), q(into + ": is the store it would be merged into"));
        QCOMPARE(rows(old, "PRAGMA user_version"), int64_t(2));
        QVERIFY(!std::filesystem::exists(missing));
    }
};

QTEST_GUILESS_MAIN(TestExperimentStore)
#include "tst_experimentstore.moc"
