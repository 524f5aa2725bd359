// The run store's schema across versions: files written at schema 2, 3 and 4
// migrate to today's with every row kept, and a file of a newer schema is
// refused, unchanged, by writers and readers alike.
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include "support/QtStrings.h"

#undef emit

#include "support/StoreRows.h"

#include "conclave/store/RunStore.h"
#include "conclave/store/SearchStore.h"
#include "conclave/store/SqliteDb.h"
#include "conclave/store/StoreSchema.h"

#include <filesystem>
#include <string>

using namespace conclave;
using namespace testsupport;

class TestStoreMigrations : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

    std::string file(const std::string& name) const { return m_dir.path().toStdString() + "/" + name; }

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
        QCOMPARE(rows(path, "PRAGMA user_version"), int64_t(9));
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
        QCOMPARE(rows(path, "PRAGMA user_version"), int64_t(9));
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
        QCOMPARE(rows(path, "PRAGMA user_version"), int64_t(9));
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

    // 9: design searches, beside everything a version 8 store held.
    void migratesAVersion8FileForSearches()
    {
        const auto path = file("v8.sqlite");
        {
            SqliteDb db;
            QVERIFY(!db.open(path, SqliteDb::Mode::Create));
            QVERIFY(!StoreSchema::migrate(db, 8));
            QVERIFY(!db.exec("INSERT INTO runs (id, team_name, team_json, input, seed, status, started_at_ms) "
                             "VALUES ('00000000000b', 'old', '{}', 'q', 1, 'ok', 5)"));
        }
        std::string error;
        // A reader that only reads upgrades it (the file is writable), and finds no search.
        auto reading = SearchStore::open(path, false, error);
        QVERIFY2(reading, error.c_str());
        QCOMPARE(rows(path, "PRAGMA user_version"), int64_t(9));
        QCOMPARE(reading->list(error)->size(), size_t(0));
        QVERIFY(reading->begin(SearchRecord{}).has_value()); // opened for reading: refused
        auto store = SearchStore::open(path, true, error);
        QVERIFY2(store, error.c_str());
        SearchRecord search;
        search.id = "s-000000000001";
        search.name = "search of old";
        search.specJson = "{}";
        QVERIFY(!store->begin(search));
        SearchCandidateRow candidate;
        candidate.candidate = 1;
        candidate.key = "b0:-";
        candidate.name = "old";
        candidate.teamJson = "{}";
        candidate.status = "alive";
        QVERIFY(!store->saveCandidates(search.id, {candidate}));
        SearchTrialRow trial;
        trial.candidate = 1;
        trial.part = "search";
        trial.task = "t1";
        trial.seed = 1;
        trial.scored = trial.correct = true;
        trial.wallUs = 1500;
        trial.costUsd = 0.25;
        QVERIFY(!store->addTrials(search.id, {trial}));
        QVERIFY(!store->end(search.id, "finished", "", "{}", 1, 0.5));
        const auto listed = store->list(error);
        QCOMPARE(listed->size(), size_t(1));
        QCOMPARE(q(listed->front().status), QString("finished"));
        QCOMPARE(listed->front().candidates, int64_t(1));
        const auto trials = store->trials(search.id, error);
        QCOMPARE(trials->size(), size_t(1));
        QCOMPARE(trials->front().wallUs, int64_t(1500));
        QCOMPARE(trials->front().costUsd, 0.25);
        QCOMPARE(rows(path, "SELECT count(*) FROM runs"), int64_t(1));
        QCOMPARE(store->remove(search.id).candidates, int64_t(1));
        QCOMPARE(q(store->remove(search.id).error), QString("no search \"s-000000000001\""));
    }

    void refusesANewerFile()
    {
        const auto path = file("v10.sqlite");
        {
            SqliteDb db;
            QVERIFY(!db.open(path, SqliteDb::Mode::Create));
            QVERIFY(!StoreSchema::migrate(db));
            QVERIFY(!db.exec("PRAGMA user_version = 10"));
        }
        const auto before = readBytes(path);
        const auto newer = path + ": written by a newer Conclave (store schema version 10; this one reads up to 9)";
        QCOMPARE(q(RunStore::open(path).error), q(newer));
        QCOMPARE(q(RunStore::openForReading(path).error), q(newer));
        QVERIFY(readBytes(path) == before);
    }
};

QTEST_GUILESS_MAIN(TestStoreMigrations)
#include "tst_storemigrations.moc"
