// What started a stored run (runs.source), the team's hash and the API key's
// name: recorded as given, filtered on, and read as `run` for rows stored
// before the column; one source's runs pruned alone (RunStore::pruneSource)
// and a key's spend on served runs (RunQueries::serveSpendSince).
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

    // A run of `origin` with one call attempt costing `cost` (its streamed text
    // and its node's result too when `ended`), started at `startedAtMs`; ended
    // unless told otherwise. Its id, or "error: …".
    static std::string withACall(RunStore& store, RunOrigin origin, double cost, int64_t startedAtMs, bool ended = true)
    {
        std::string error;
        auto recorder = store.record(BenchTeams::chain(1), error, std::move(origin));
        if (!recorder)
            return "error: " + error;
        recorder->runStarted("x", 1, ClockKind::Virtual);
        Span span;
        span.id = 1;
        span.node = NodeId("n");
        span.kind = SpanKind::Attempt;
        span.model = "m";
        span.attempt = 1;
        recorder->spanStarted(span);
        recorder->nodeToken(span.node, span.id, "hello", 10);
        span.endUs = 1000;
        span.status = Status::Ok;
        span.tokensOut = 5;
        span.costUsd = cost;
        recorder->spanFinished(span);
        if (ended) {
            NodeResult node;
            node.status = Status::Ok;
            node.text = "hello";
            recorder->nodeFinished(span.node, node, 1000);
            RunResult result;
            result.status = RunStatus::Ok;
            result.costUsd = cost;
            result.calls = 1;
            recorder->runFinished(result);
        }
        if (const auto failed = recorder->waitUntilStored(); !failed.empty())
            return "error: " + failed;
        // Start times of our choosing, so that "most recent" and "since" are exact.
        SqliteDb db;
        if (db.open(store.path(), SqliteDb::Mode::ReadWrite))
            return "error: cannot open";
        if (auto e = db.exec("UPDATE runs SET started_at_ms = " + std::to_string(startedAtMs) + " WHERE id = '" +
                             recorder->id().str() + "'"))
            return "error: " + *e;
        return recorder->id().str();
    }

    static int64_t count(const std::string& path, const std::string& sql)
    {
        SqliteDb db;
        if (db.open(path, SqliteDb::Mode::ReadOnly))
            return -1;
        return db.queryInt(sql).value_or(-1);
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

    // pruneSource keeps one source's `keep` most recent ended runs and deletes
    // its older ones with their spans, texts and node results; runs of other
    // sources, running ones and trials are never counted nor deleted.
    void pruneSourceDeletesOnlyThatSource()
    {
        const auto path = file("prune.sqlite");
        auto opened = RunStore::open(path);
        QVERIFY(opened.store);
        auto& store = *opened.store;
        std::vector<std::string> served;
        for (int64_t at : {1000, 2000, 3000, 4000})
            served.push_back(withACall(store, RunOrigin{RunSource::Serve, {}, "alice"}, 0.5, at));
        const auto running = withACall(store, RunOrigin{RunSource::Serve, {}, "alice"}, 0.5, 500, false);
        const auto olderRun = withACall(store, RunOrigin{}, 0.5, 100);
        const auto newerRun = withACall(store, RunOrigin{}, 0.5, 5000);
        const auto trial = withACall(store, RunOrigin{RunSource::Eval, "e-000000000001", {}}, 0.5, 50);
        for (const auto& id : {served[0], served[1], served[2], served[3], running, olderRun, newerRun, trial})
            QVERIFY2(id.rfind("error: ", 0) != 0, id.c_str());
        QCOMPARE(count(path, "SELECT count(*) FROM runs"), int64_t(8));
        QCOMPARE(count(path, "SELECT count(*) FROM span_text"), int64_t(8));
        QCOMPARE(count(path, "SELECT count(*) FROM node_results"), int64_t(7)); // the running run's node never ended

        const auto pruned = store.pruneSource(RunSource::Serve, 2);
        QCOMPARE(QString::fromStdString(pruned.error), QString());
        QCOMPARE(pruned.count, 2);
        const auto left = listed(store, RunSource::Serve);
        QCOMPARE(left.size(), size_t(3));
        QCOMPARE(left[0].id.str(), served[3]);
        QCOMPARE(left[1].id.str(), served[2]);
        QCOMPARE(left[2].id.str(), running);
        QCOMPARE(listed(store, RunSource::Run).size(), size_t(2));
        QCOMPARE(listed(store, RunSource::Eval).size(), size_t(1));
        // With their spans, texts and node results, and nothing of the others'.
        for (const char* table : {"spans", "span_text", "node_results"}) {
            QCOMPARE(count(path, std::string("SELECT count(*) FROM ") + table + " WHERE run_id IN ('" + served[0] +
                                     "', '" + served[1] + "')"),
                     int64_t(0));
        }
        QCOMPARE(count(path, "SELECT count(*) FROM spans"), int64_t(6));
        QCOMPARE(count(path, "SELECT count(*) FROM span_text"), int64_t(6));
        QCOMPARE(count(path, "SELECT count(*) FROM node_results"), int64_t(5));

        // Keeping as many as there are deletes nothing; keeping none deletes every ended one.
        QCOMPARE(store.pruneSource(RunSource::Serve, 2).count, 0);
        QCOMPARE(store.pruneSource(RunSource::Studio, 0).count, 0);
        QCOMPARE(store.pruneSource(RunSource::Serve, 0).count, 2);
        QCOMPARE(listed(store, RunSource::Serve).size(), size_t(1));
        QCOMPARE(count(path, "SELECT count(*) FROM runs"), int64_t(4));
        // prune shares the rule, over every source: the older run goes, the trial stays.
        QCOMPARE(store.prune(1).count, 1);
        QCOMPARE(listed(store, RunSource::Run).size(), size_t(1));
        QCOMPARE(listed(store, RunSource::Run)[0].id.str(), newerRun);
        QCOMPARE(count(path, "SELECT count(*) FROM runs"), int64_t(3));

        opened.store.reset();
        auto reading = RunStore::openForReading(path);
        QVERIFY(reading.store);
        const auto refused = reading.store->pruneSource(RunSource::Serve, 0);
        QCOMPARE(refused.count, 0);
        QCOMPARE(QString::fromStdString(refused.error), QString::fromStdString(path + ": opened for reading only"));
    }

    // A key's spend on served runs since an instant: ended runs' costs, and a
    // running run's committed attempts; other keys and other sources apart.
    void serveSpendSinceSumsOneKeysServedRuns()
    {
        const auto path = file("spend.sqlite");
        auto opened = RunStore::open(path);
        QVERIFY(opened.store);
        auto& store = *opened.store;
        const RunOrigin alice{RunSource::Serve, {}, "alice"};
        for (const auto& id : {withACall(store, alice, 0.25, 1000), withACall(store, alice, 0.5, 2000),
                               withACall(store, alice, 0.125, 3000, false),
                               withACall(store, RunOrigin{RunSource::Serve, {}, "bob"}, 1.0, 2000),
                               withACall(store, RunOrigin{RunSource::Run, {}, "alice"}, 2.0, 2500),
                               withACall(store, RunOrigin{RunSource::Serve, {}, {}}, 4.0, 2500)})
            QVERIFY2(id.rfind("error: ", 0) != 0, id.c_str());
        std::string error;
        auto reader = store.reader(error);
        QVERIFY(reader);
        const auto spend = [&](const std::string& key, int64_t since) {
            std::string why;
            const auto usd = reader->serveSpendSince(key, since, why);
            return usd ? *usd : -1.0;
        };
        QCOMPARE(spend("alice", 0), 0.875);
        QCOMPARE(spend("alice", 1000), 0.875);
        QCOMPARE(spend("alice", 1001), 0.625);
        QCOMPARE(spend("alice", 3000), 0.125);
        QCOMPARE(spend("alice", 3001), 0.0);
        QCOMPARE(spend("bob", 0), 1.0);
        QCOMPARE(spend("carol", 0), 0.0);
        QCOMPARE(spend("", 0), 0.0); // a run served without a key is no key's

        // The same window lists the served runs it sums.
        RunFilter since;
        since.source = RunSource::Serve;
        since.startedSinceMs = 2000;
        const auto runs = reader->list(since, error);
        QVERIFY(runs);
        QCOMPARE(runs->size(), size_t(4));
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
        QCOMPARE(db.queryInt("PRAGMA user_version").value_or(-1), int64_t(9));
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
