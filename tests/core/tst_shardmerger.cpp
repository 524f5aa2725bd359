// ShardMerger: shards merge into their union, idempotently, and are refused
// (both files unchanged) when their specs differ or they are not shards; a run
// copied half-written is replaced when the shard is merged again, trials without runs
// are copied, and what an experiment spent is counted once per shard, however
// often and in whatever order shards are merged.
#include <QTemporaryDir>
#include <QtTest>

#include "support/QtStrings.h"

#undef emit

#include "support/StoreRows.h"

#include "conclave/store/RunStore.h"
#include "conclave/store/SqliteDb.h"
#include "conclave/store/StoreSchema.h"

#include <filesystem>
#include <fstream>

using namespace conclave;
using namespace testsupport;

class TestShardMerger : public QObject {
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

    // Experiment `id` saved into `store` with what it spent, and its trials (no runs).
    void saveSpending(RunStore& store, const std::string& id, double spent, const std::vector<int>& designs)
    {
        auto e = experimentRecord(id);
        e.spentUsd = spent;
        QVERIFY(!store.saveExperiment(e));
        for (const int design : designs)
            store.addTrial(trialRecord(id, design, "t1", 1, RunId()));
        QCOMPARE(q(store.flushTrials().value_or("")), QString());
    }

    double spent(RunStore& store, const std::string& id)
    {
        std::string error;
        auto reader = store.reader(error);
        const auto e = reader ? reader->experiment(id, error) : std::nullopt;
        return e ? e->spentUsd : -1;
    }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    // A run the first merge copied while its shard was still writing it (one span,
    // `running`) is replaced by the finished run when the shard is merged again.
    void reMergeReplacesAHalfWrittenRun()
    {
        const auto shard = file("half.sqlite");
        const auto into = file("half-into.sqlite");
        auto writing = RunStore::open(shard);
        QVERIFY(writing.store);
        auto experiment = experimentRecord("e-half");
        experiment.status = ExperimentStatus::Running;
        experiment.plannedTrials = 2;
        QVERIFY(!writing.store->saveExperiment(experiment));
        writing.store->addTrial(trialRecord("e-half", 0, "t1", 1, storeRun(*writing.store, "e-half")));
        std::string error;
        auto half = writing.store->record(BenchTeams::fanOut(2, 1), error, "e-half");
        QVERIFY(half);
        half->runStarted("q", 1, ClockKind::Real);
        recordSpans(*half, 1, 1);
        QCOMPARE(q(half->waitUntilStored()), QString());
        QVERIFY(!writing.store->flushTrials());

        auto opened = RunStore::open(into);
        QVERIFY(opened.store);
        auto& store = *opened.store;
        const auto first = store.mergeFrom(shard);
        QCOMPARE(q(first.error), QString());
        QCOMPARE(first.trials, 1);
        QCOMPARE(first.runs, 2);
        QCOMPARE(first.replacedRuns, 0);
        const auto halfRun = "SELECT status || ' ' || (SELECT count(*) FROM spans WHERE run_id = r.id) FROM runs r "
                             "WHERE id = '" +
                             half->id().str() + "'";
        QCOMPARE(text(into, halfRun), QString("running 1"));

        // The shard's process finishes the run and its trial.
        recordSpans(*half, 2, 2);
        QVERIFY(finishRun(*half));
        writing.store->addTrial(trialRecord("e-half", 0, "t2", 1, half->id()));
        experiment.status = ExperimentStatus::Finished;
        QVERIFY(!writing.store->saveExperiment(experiment));
        QVERIFY(!writing.store->flushTrials());

        const auto second = store.mergeFrom(shard);
        QCOMPARE(q(second.error), QString());
        QCOMPARE(second.trials, 1);
        QCOMPARE(second.runs, 1);
        QCOMPARE(second.replacedRuns, 1);
        QCOMPARE(text(into, halfRun), QString("ok 2"));
        const auto whole = QString("experiments=1 trials=2 runs=2 spans=4 span_text=2 node_results=2");
        QCOMPARE(census(into), whole);
        std::string readError;
        QVERIFY(store.reader(readError)->experiment("e-half", readError)->status == ExperimentStatus::Finished);

        // Finished here: a third merge replaces nothing.
        const auto third = store.mergeFrom(shard);
        QCOMPARE(q(third.error), QString());
        QCOMPARE(third.runs, 0);
        QCOMPARE(third.replacedRuns, 0);
        QCOMPARE(census(into), whole);
    }

    // A copy marked interrupted here (its writer seemed gone) is replaced by a shard's
    // copy that got further, though that is still not finished.
    void aCopyThatGotFurtherReplacesAnInterruptedOne()
    {
        const auto shard = file("further.sqlite");
        const auto into = file("further-into.sqlite");
        auto writing = RunStore::open(shard);
        QVERIFY(writing.store);
        QVERIFY(!writing.store->saveExperiment(experimentRecord("e-further")));
        std::string error;
        auto run = writing.store->record(BenchTeams::fanOut(2, 1), error, "e-further");
        run->runStarted("q", 1, ClockKind::Real);
        recordSpans(*run, 1, 1);
        QCOMPARE(q(run->waitUntilStored()), QString());
        {
            auto opened = RunStore::open(into);
            QVERIFY(opened.store);
            QCOMPARE(opened.store->mergeFrom(shard).runs, 1);
        }
        {
            SqliteDb db;
            QVERIFY(!db.open(into, SqliteDb::Mode::ReadWrite));
            QVERIFY(!db.exec("UPDATE runs SET pid_start = -5"));
        }
        auto opened = RunStore::open(into);
        QVERIFY(opened.store);
        QCOMPARE(opened.store->recoveredRuns(), 1);
        recordSpans(*run, 2, 2);
        QCOMPARE(q(run->waitUntilStored()), QString());
        const auto again = opened.store->mergeFrom(shard);
        QCOMPARE(q(again.error), QString());
        QCOMPARE(again.replacedRuns, 1);
        QCOMPARE(text(into, "SELECT status || ' ' || (SELECT count(*) FROM spans WHERE run_id = r.id) FROM runs r"),
                 QString("running 2"));
    }

    void trialsWithoutRunsAreCopied()
    {
        const auto shard = file("summaries.sqlite");
        const auto into = file("summaries-into.sqlite");
        {
            auto writing = RunStore::open(shard);
            QVERIFY(writing.store);
            saveSpending(*writing.store, "e-sum", 0, {0, 1});
        }
        auto opened = RunStore::open(into);
        QVERIFY(opened.store);
        const auto merged = opened.store->mergeFrom(shard);
        QCOMPARE(q(merged.error), QString());
        QCOMPARE(merged.trials, 2);
        QCOMPARE(merged.runs, 0);
        QCOMPARE(rows(into, "SELECT count(*) FROM trials WHERE run_id IS NULL"), int64_t(2));
        QCOMPARE(opened.store->mergeFrom(shard).trials, 0);
    }

    // spent_usd = this store's own spend + what each distinct shard spent, by the
    // last copy of it merged: never twice, never a copy of this store itself.
    void spendIsCountedOncePerShard()
    {
        const auto a = file("spend-a.sqlite");
        const auto b = file("spend-b.sqlite");
        const auto olderA = file("spend-a-older.sqlite");
        const auto into = file("spend-into.sqlite");
        {
            auto shard = RunStore::open(a);
            QVERIFY(shard.store);
            saveSpending(*shard.store, "e-spend", 0.5, {0});
        }
        std::filesystem::copy_file(a, olderA);
        {
            auto shard = RunStore::open(b);
            QVERIFY(shard.store);
            saveSpending(*shard.store, "e-spend", 0.25, {1});
        }
        auto opened = RunStore::open(into);
        QVERIFY(opened.store);
        auto& store = *opened.store;
        saveSpending(store, "e-spend", 2.0, {}); // this store's own run of it spent 2.00

        QVERIFY(store.mergeFrom(a).error.empty());
        QCOMPARE(spent(store, "e-spend"), 2.5);
        QVERIFY(store.mergeFrom(b).error.empty());
        QCOMPARE(spent(store, "e-spend"), 2.75);
        QVERIFY(store.mergeFrom(a).error.empty());
        QVERIFY(store.mergeFrom(b).error.empty());
        QCOMPARE(spent(store, "e-spend"), 2.75);

        // Shard a resumed and spent 0.50 more: merging it again adds that.
        {
            auto shard = RunStore::open(a);
            QVERIFY(shard.store);
            saveSpending(*shard.store, "e-spend", 1.0, {});
        }
        QVERIFY(store.mergeFrom(a).error.empty());
        QCOMPARE(spent(store, "e-spend"), 3.25);
        // An older copy of a, merged after: the newer spend stands.
        QVERIFY(store.mergeFrom(olderA).error.empty());
        QCOMPARE(spent(store, "e-spend"), 3.25);
        QCOMPARE(rows(into, "SELECT count(*) FROM merged_shards"), int64_t(2));

        // A copy of this store adds nothing: its spend is this store's.
        opened.store.reset();
        const auto copy = file("spend-into-copy.sqlite");
        std::filesystem::copy_file(into, copy);
        opened = RunStore::open(into);
        QVERIFY(opened.store);
        QVERIFY(opened.store->mergeFrom(copy).error.empty());
        QCOMPARE(spent(*opened.store, "e-spend"), 3.25);

        // Into a new store, the first shard's spend is the experiment's.
        auto fresh = RunStore::open(file("spend-fresh.sqlite"));
        QVERIFY(fresh.store);
        QVERIFY(fresh.store->mergeFrom(b).error.empty());
        QCOMPARE(spent(*fresh.store, "e-spend"), 0.25);
        QVERIFY(fresh.store->mergeFrom(a).error.empty());
        QCOMPARE(spent(*fresh.store, "e-spend"), 1.25);
    }

    // A shard from before spent_usd (schema 4) spent what its trials cost.
    void anOlderShardSpentWhatItsTrialsCost()
    {
        const auto shard = file("spend-v4.sqlite");
        {
            SqliteDb db;
            QVERIFY(!db.open(shard, SqliteDb::Mode::Create));
            QVERIFY(!StoreSchema::migrate(db, 4));
            QVERIFY(!db.exec("INSERT INTO experiments (id, name, status, spec_json, planned_trials, started_at_ms) "
                             "VALUES ('e-v4', 'old', 'finished', '{}', 2, 5);"
                             "INSERT INTO trials (experiment_id, design, design_name, task, seed, run_id, status, "
                             "cost_usd, judge_cost_usd) VALUES "
                             "('e-v4', 0, 'gate', 't1', 1, '00000000000a', 'ok', 0.25, 0.125), "
                             "('e-v4', 0, 'gate', 't2', 1, '00000000000b', 'ok', 0.5, 0)"));
        }
        auto opened = RunStore::open(file("spend-v4-into.sqlite"));
        QVERIFY(opened.store);
        const auto merged = opened.store->mergeFrom(shard);
        QCOMPARE(q(merged.error), QString());
        QCOMPARE(merged.trials, 2);
        QCOMPARE(spent(*opened.store, "e-v4"), 0.875);
        QVERIFY(opened.store->mergeFrom(shard).error.empty());
        QCOMPARE(spent(*opened.store, "e-v4"), 0.875);
        QCOMPARE(rows(shard, "PRAGMA user_version"), int64_t(4));
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

QTEST_GUILESS_MAIN(TestShardMerger)
#include "tst_shardmerger.moc"
