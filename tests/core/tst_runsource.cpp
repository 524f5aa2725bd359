// What started a stored run (runs.source), the team's hash and the API key's
// name: recorded as given, filtered on, and read as `run` for rows stored
// before the column.
#include <QTemporaryDir>
#include <QtTest>

#undef emit

#include "conclave/bench/BenchTeams.h"
#include "conclave/io/ContentHash.h"
#include "conclave/io/TeamJson.h"
#include "conclave/store/RunQueries.h"
#include "conclave/store/RunStore.h"
#include "conclave/store/SqliteDb.h"
#include "conclave/store/StoreSchema.h"
#include "support/StoreRows.h"

using namespace conclave;

class TestRunSource : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

    std::string file(const char* name) const { return (m_dir.path() + "/" + name).toStdString(); }

    static std::string stored(RunStore& store, const Team& team, RunOrigin origin)
    {
        std::string error;
        auto recorder = store.record(team, error, std::move(origin));
        if (!recorder)
            return "error: " + error;
        recorder->runStarted("x", 1, ClockKind::Real);
        const auto failed = recorder->waitUntilStored();
        return failed.empty() ? recorder->id().str() : "error: " + failed;
    }

    static std::vector<RunSummary> listed(RunStore& store, std::optional<RunSource> source)
    {
        std::string error;
        auto reader = store.reader(error);
        if (!reader)
            return {};
        RunFilter filter;
        filter.source = source;
        return reader->list(filter, error).value_or(std::vector<RunSummary>{});
    }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void names_data()
    {
        QTest::addColumn<int>("source");
        QTest::addColumn<QString>("name");
        QTest::newRow("run") << int(RunSource::Run) << "run";
        QTest::newRow("rerun") << int(RunSource::Rerun) << "rerun";
        QTest::newRow("eval") << int(RunSource::Eval) << "eval";
        QTest::newRow("studio") << int(RunSource::Studio) << "studio";
        QTest::newRow("serve") << int(RunSource::Serve) << "serve";
    }
    void names()
    {
        QFETCH(int, source);
        QFETCH(QString, name);
        QCOMPARE(QString::fromStdString(std::string(toString(RunSource(source)))), name);
        QVERIFY(runSourceFromString(name.toStdString()) == std::optional(RunSource(source)));
    }

    void unknownNames()
    {
        QVERIFY(!runSourceFromString("cron"));
        QVERIFY(!runSourceFromString("Run"));
        QVERIFY(!runSourceFromString(""));
        QCOMPARE(QString::fromStdString(std::string(runSourceNames())), QStringLiteral("run, rerun, eval, studio or serve"));
    }

    void recordsWhereARunComesFrom()
    {
        auto opened = RunStore::open(file("origin.sqlite"));
        QVERIFY(opened.store);
        auto& store = *opened.store;
        const Team team = BenchTeams::chain(2);
        const auto plain = stored(store, team, {});
        const auto served = stored(store, team, RunOrigin{RunSource::Serve, {}, "alice"});
        const auto trial = stored(store, team, RunOrigin{RunSource::Eval, "e-000000000001", {}});
        const auto studio = stored(store, BenchTeams::chain(3), RunOrigin{RunSource::Studio, {}, {}});
        for (const auto& id : {plain, served, trial, studio})
            QVERIFY2(id.rfind("error: ", 0) != 0, id.c_str());

        // Every source but eval by default: experiments' trials stay hidden.
        const auto all = listed(store, std::nullopt);
        QCOMPARE(all.size(), size_t(3));
        const auto serve = listed(store, RunSource::Serve);
        QCOMPARE(serve.size(), size_t(1));
        QCOMPARE(serve[0].id.str(), served);
        QVERIFY(serve[0].source == RunSource::Serve);
        QCOMPARE(serve[0].keyName, std::string("alice"));
        QCOMPARE(serve[0].teamHash, contentHash(teamToJsonText(team)));
        // Asked for by source, the trials show.
        const auto eval = listed(store, RunSource::Eval);
        QCOMPARE(eval.size(), size_t(1));
        QCOMPARE(eval[0].id.str(), trial);
        QCOMPARE(eval[0].experimentId, std::string("e-000000000001"));
        const auto run = listed(store, RunSource::Run);
        QCOMPARE(run.size(), size_t(1));
        QCOMPARE(run[0].id.str(), plain);
        QCOMPARE(run[0].keyName, std::string());
        QCOMPARE(listed(store, RunSource::Studio).size(), size_t(1));
        QCOMPARE(listed(store, RunSource::Rerun).size(), size_t(0));
        // One team, one hash; another team, another.
        QCOMPARE(run[0].teamHash, serve[0].teamHash);
        QVERIFY(listed(store, RunSource::Studio)[0].teamHash != run[0].teamHash);

        // A key's name is stored as given, NULL when there is none.
        SqliteDb db;
        QVERIFY(!db.open(file("origin.sqlite"), SqliteDb::Mode::ReadOnly));
        QCOMPARE(db.queryInt("SELECT count(*) FROM runs WHERE key_name IS NULL").value_or(-1), int64_t(3));
    }

    void rowsStoredBeforeTheColumnReadRun()
    {
        const auto path = file("v7.sqlite");
        QVERIFY(testsupport::makeOlderStore(path, 7));
        auto opened = RunStore::open(path);
        QVERIFY(opened.store);
        const auto runs = listed(*opened.store, RunSource::Run);
        QCOMPARE(runs.size(), size_t(1));
        QCOMPARE(runs[0].id.str(), std::string("00000000000a"));
        QVERIFY(runs[0].source == RunSource::Run);
        QCOMPARE(runs[0].teamHash, std::string());
        QCOMPARE(runs[0].keyName, std::string());
        SqliteDb db;
        QVERIFY(!db.open(path, SqliteDb::Mode::ReadOnly));
        QCOMPARE(db.queryInt("PRAGMA user_version").value_or(-1), int64_t(8));
        QCOMPARE(db.queryInt("SELECT count(*) FROM sqlite_master WHERE name = 'runs_by_source'").value_or(-1),
                 int64_t(1));
    }

    void mergesRunsOfAStoreFromBeforeExperiments()
    {
        const auto old = file("v2.sqlite");
        QVERIFY(testsupport::makeOlderStore(old, 2));
        auto opened = RunStore::open(file("merged.sqlite"));
        QVERIFY(opened.store);
        const auto merged = opened.store->mergeRunsFrom(old);
        QCOMPARE(QString::fromStdString(merged.error), QString());
        QCOMPARE(merged.runs, 1);
        QCOMPARE(merged.replacedRuns, 0);
        const auto runs = listed(*opened.store, RunSource::Run);
        QCOMPARE(runs.size(), size_t(1));
        QCOMPARE(runs[0].id.str(), std::string("00000000000a"));
        QCOMPARE(opened.store->mergeRunsFrom(old).runs, 0);
    }
};

QTEST_MAIN(TestRunSource)
#include "tst_runsource.moc"
