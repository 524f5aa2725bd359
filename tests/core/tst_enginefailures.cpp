// The engine when things go wrong or run long, on the local backend:
// timeouts, retries and fallbacks, budgets, cancellation, the critical path
// of a run, the examples and a team that cannot start.
#include <QElapsedTimer>
#include <QtTest>

#include "support/EngineTestKit.h"

using namespace enginetest;

// The harness's run() and engine() are the suite's own.
class TestEngineFailures : public QObject, private EngineHarness {
    Q_OBJECT

private slots:
    void initTestCase() { QVERIFY(init()); }
    void cleanupTestCase() { reset(); }

    void timeouts_data()
    {
        QTest::addColumn<int>("retries");
        QTest::addColumn<QString>("fallback");
        QTest::addColumn<QString>("expected");
        QTest::addColumn<QString>("status");
        QTest::addColumn<QString>("runStatus");

        QTest::newRow("no retries") << 0 << ""
                                    << "1:slow:timeout"
                                    << "timeout"
                                    << "failed";
        QTest::newRow("two retries") << 2 << ""
                                     << "1:slow:timeout 2:slow:timeout 3:slow:timeout"
                                     << "timeout"
                                     << "failed";
        QTest::newRow("then the fallback") << 1 << "right-100"
                                           << "1:slow:timeout 2:slow:timeout 3:right-100:ok"
                                           << "ok"
                                           << "ok";
    }

    void timeouts()
    {
        QFETCH(int, retries);
        QFETCH(QString, fallback);
        QFETCH(QString, expected);
        QFETCH(QString, status);
        QFETCH(QString, runStatus);
        TeamBuilder team;
        // 5000 ms is 50 ms of real time: the slow model needs 1 s, the fallback 1 ms.
        json fields{{"timeout_ms", 5000}, {"retries", retries}};
        if (!fallback.isEmpty())
            fields["fallback_model"] = fallback.toStdString();
        team.expert("e", "slow", fields).edge("in", "e");
        team.output("e");
        const auto result = run(team, kMath);
        QCOMPARE(attempts(result, "e"), expected);
        QCOMPARE(statusOf(result, "e"), status);
        QCOMPARE(q(toString(result.status)), runStatus);
        for (const auto& s : spansOf(result, "e", SpanKind::Attempt)) {
            QCOMPARE(s.parent, nodeSpan(result, "e").id);
            if (s.status == Status::Timeout)
                QCOMPARE(q(s.error), QStringLiteral("timed out after 5000 ms"));
        }
        if (status == QStringLiteral("timeout"))
            QCOMPARE(q(resultOf(result, "e").error), QStringLiteral("timed out after 5000 ms"));
    }

    void retriesThenFallback()
    {
        TeamBuilder team;
        team.expert("e", "flaky", json{{"retries", 2}, {"fallback_model", "right"}}).edge("in", "e");
        team.output("e");
        const auto result = run(team, kMath);
        QCOMPARE(attempts(result, "e"), QStringLiteral("1:flaky:failed 2:flaky:failed 3:flaky:failed 4:right:ok"));
        QCOMPARE(statusOf(result, "e"), QStringLiteral("ok"));
        QCOMPARE(answerOf(result, "e"), QStringLiteral("783"));
        QCOMPARE(q(toString(result.status)), QStringLiteral("ok"));
        QCOMPARE(result.calls, 4);
        const auto tries = spansOf(result, "e", SpanKind::Attempt);
        for (size_t i = 0; i < tries.size(); ++i) {
            QCOMPARE(tries[i].attempt, int(i + 1));
            QCOMPARE(tries[i].parent, nodeSpan(result, "e").id);
            if (i > 0)
                QVERIFY(tries[i].startUs >= tries[i - 1].endUs);
            if (i < 3) {
                QCOMPARE(q(tries[i].error), QStringLiteral("simulated server error (503) from flaky"));
                QCOMPARE(tries[i].plannedMs, 50.0);
            }
        }
        QCOMPARE(tries.back().plannedMs, 150.0);
        // The node's usage adds up every attempt's.
        int64_t tokensIn = 0;
        for (const auto& s : tries)
            tokensIn += s.tokensIn;
        QCOMPARE(resultOf(result, "e").tokensIn, tokensIn);
        QCOMPARE(resultOf(result, "e").tokensOut, int64_t(100));
    }

    void retriesExhaustedFail()
    {
        TeamBuilder team;
        team.expert("e", "flaky", json{{"retries", 1}}).edge("in", "e");
        team.output("e");
        const auto result = run(team, kMath);
        QCOMPARE(attempts(result, "e"), QStringLiteral("1:flaky:failed 2:flaky:failed"));
        QCOMPARE(statusOf(result, "e"), QStringLiteral("failed"));
        QCOMPARE(q(resultOf(result, "e").error), QStringLiteral("simulated server error (503) from flaky"));
        QCOMPARE(q(toString(result.status)), QStringLiteral("failed"));
    }

    // ---- budgets ----

    void budgetExhaustion_data()
    {
        QTest::addColumn<QByteArray>("budget");
        QTest::addColumn<QString>("error");
        QTest::newRow("max_tokens") << QByteArray(R"({"max_tokens": 10})") << "budget exhausted: max_tokens 10 reached";
        QTest::newRow("max_cost_usd") << QByteArray(R"({"max_cost_usd": 0.0001})")
                                      << "budget exhausted: max_cost_usd 0.0001 reached";
    }

    void budgetExhaustion()
    {
        QFETCH(QByteArray, budget);
        QFETCH(QString, error);
        TeamBuilder team;
        team.doc()["budget"] = json::parse(budget.toStdString());
        team.expert("e1", "right").edge("in", "e1");
        team.expert("e2", "right").edge("e1", "e2");
        team.expert("e3", "right").edge("e2", "e3");
        team.output("e3");
        const auto result = run(team, kMath);
        QCOMPARE(q(toString(result.status)), QStringLiteral("budget_exhausted"));
        // The first call spends the whole budget; no call is dispatched after it.
        QCOMPARE(result.calls, 1);
        QCOMPARE(spansOfKind(result, SpanKind::Attempt).size(), size_t(1));
        QCOMPARE(attempts(result, "e1"), QStringLiteral("1:right:ok"));
        QCOMPARE(statuses(result, {"e1", "e2", "e3"}), QStringLiteral("e1=ok e2=budget_exhausted e3=budget_exhausted"));
        QCOMPARE(q(resultOf(result, "e2").error), error);
        QCOMPARE(result.tokensIn + result.tokensOut,
                 resultOf(result, "e1").tokensIn + resultOf(result, "e1").tokensOut);
    }

    void budgetWallClock()
    {
        TeamBuilder team;
        team.doc()["budget"] = json{{"max_wall_ms", 1000}}; // 10 ms of real time; the slow call needs 1 s
        team.expert("e1", "slow").edge("in", "e1");
        team.expert("e2", "right").edge("e1", "e2");
        team.output("e2");
        const auto result = run(team, kMath);
        QCOMPARE(q(toString(result.status)), QStringLiteral("budget_exhausted"));
        QCOMPARE(attempts(result, "e1"), QStringLiteral("1:slow:budget_exhausted"));
        QCOMPARE(statuses(result, {"e1", "e2"}), QStringLiteral("e1=budget_exhausted e2=budget_exhausted"));
        QCOMPARE(result.calls, 1);
        const auto attempt = firstAttempt(result, "e1");
        QVERIFY(attempt.endUs < attempt.startUs + 100050 * 10);
    }

    // ---- cancellation ----

    void cancelMidRun()
    {
        TeamBuilder team(1.0); // real time: each call takes 5 s
        team.expert("a", "five-seconds").edge("in", "a");
        team.expert("b", "five-seconds").edge("in", "b");
        team.node("join", "aggregator", json{{"strategy", "majority"}}).edge("a", "join").edge("b", "join");
        team.output("join");
        std::string problems;
        const auto built = team.build(problems);
        QVERIFY2(built, problems.c_str());
        Recorder recorder;
        auto started = engine().start(*built, kMath, 42, {&recorder});
        QVERIFY2(started.run, started.error.c_str());
        // Both calls are in flight once their first tokens arrive (20 ms in).
        QVERIFY(recorder.waitForTokens(2, 10s));
        std::this_thread::sleep_for(30ms);
        QElapsedTimer clock;
        clock.start();
        started.run->cancel();
        QVERIFY(started.run->waitFor(1s));
        QVERIFY(clock.elapsed() <= 1000);
        const auto result = started.run->wait();
        QCOMPARE(q(toString(result.status)), QStringLiteral("cancelled"));
        QCOMPARE(statuses(result, {"a", "b", "join", "out"}),
                 QStringLiteral("a=cancelled b=cancelled join=cancelled out=cancelled"));
        QCOMPARE(attempts(result, "a"), QStringLiteral("1:five-seconds:cancelled"));
        QCOMPARE(attempts(result, "b"), QStringLiteral("1:five-seconds:cancelled"));
        for (const auto& s : result.spans)
            QVERIFY(s.endUs >= 0);
        QVERIFY(result.wallUs < 5'000'000);
        QCOMPARE(recorder.runsFinished(), 1);
        // Cancelling again, or after the end, changes nothing.
        started.run->cancel();
        QCOMPARE(q(toString(started.run->wait().status)), QStringLiteral("cancelled"));
    }

    // ---- critical path ----

    void criticalPath_data()
    {
        QTest::addColumn<QStringList>("branches"); // "model>model..." chains from the input to the join
        QTest::addColumn<bool>("router");
        QTest::addColumn<QStringList>("path");

        QTest::newRow("the longer branch")
            << QStringList{"right-300", "right-100"} << false << QStringList{"in", "a1", "join", "out"};
        QTest::newRow("the longer branch, second")
            << QStringList{"right-100", "right-300"} << false << QStringList{"in", "b1", "join", "out"};
        QTest::newRow("a chain beats a single node") << QStringList{"right-1000>right-1000", "right-100"} << false
                                                     << QStringList{"in", "a1", "a2", "join", "out"};
        QTest::newRow("a single node beats a chain")
            << QStringList{"right-100>right-100", "right-2000"} << false << QStringList{"in", "b1", "join", "out"};
        QTest::newRow("through a router")
            << QStringList{"right-100", "right-1000"} << true << QStringList{"in", "r", "b1", "join", "out"};
    }

    void criticalPath()
    {
        QFETCH(QStringList, branches);
        QFETCH(bool, router);
        QFETCH(QStringList, path);
        TeamBuilder team(0.05); // the branches differ by 10 ms of real time or more
        std::string source = "in";
        if (router) {
            team.node("r", "router", json{{"strategy", "all"}}).edge("in", "r");
            source = "r";
        }
        team.node("join", "aggregator", json{{"strategy", "concat"}});
        for (int b = 0; b < branches.size(); ++b) {
            std::string previous = source;
            const auto models = branches[b].split(QLatin1Char('>'));
            for (int i = 0; i < models.size(); ++i) {
                const auto id = std::string(1, char('a' + b)) + std::to_string(i + 1);
                team.expert(id, models[i].toStdString()).edge(previous, id, previous == "r" ? id : std::string());
                previous = id;
            }
            team.edge(previous, "join");
        }
        team.output("join");
        const auto result = run(team, kMath);
        QCOMPARE(q(toString(result.status)), QStringLiteral("ok"));
        QStringList actual;
        int64_t length = 0;
        for (const auto& id : result.criticalPath.nodes) {
            actual << q(id.str());
            length += nodeSpan(result, id.str()).durationUs();
        }
        QCOMPARE(actual, path);
        QCOMPARE(result.criticalPath.lengthUs, length);
        QVERIFY(result.criticalPath.lengthUs <= result.wallUs);
    }

    // ---- the shipped examples ----

    void examplesRun_data()
    {
        QTest::addColumn<QString>("example");
        QTest::addColumn<QString>("input");
        const std::map<QString, QString> inputs{
            {"cascade.team.json", kMath},
            {"debate.team.json", kYesNo},
            {"keyword-vote.team.json", kMath},
            {"mixture-of-agents.team.json", kFrance},
            {"fast-path.team.json", kFrance},
            {"mosaic.team.json", kFrance},
            {"review-board.team.json", "Which word is spelled correctly: accomodate, accommodate, acommodate, "
                                       "accommodete?"},
            {"triage.team.json", kCompound},
        };
        const auto files = QDir(QStringLiteral(CONCLAVE_RESOURCES "/examples"))
                               .entryList({QStringLiteral("*.team.json")}, QDir::Files, QDir::Name);
        QVERIFY(!files.isEmpty());
        for (const auto& file : files) {
            const auto it = inputs.find(file);
            // A new example needs an input here; until then it runs on a math task.
            QTest::newRow(qPrintable(file)) << file << (it == inputs.end() ? QString(kMath) : it->second);
        }
        QTest::newRow("triage, single question") << "triage.team.json" << kFrance;
    }

    void examplesRun()
    {
        QFETCH(QString, example);
        QFETCH(QString, input);
        const auto team = loadExample(example, 0.002);
        QVERIFY(team);
        const auto result = run(*team, input.toStdString());
        const auto status = q(toString(result.status));
        QVERIFY2(status == QStringLiteral("ok") || status == QStringLiteral("partial"),
                 qPrintable(status + QStringLiteral(": ") + q(result.output.error)));
        QVERIFY(!result.output.answer.empty());
        QVERIFY(result.calls > 0);
        QVERIFY(result.costUsd > 0);
        QVERIFY(!result.criticalPath.nodes.empty());
        QCOMPARE(q(result.criticalPath.nodes.front().str()), QStringLiteral("in"));
        QCOMPARE(q(result.criticalPath.nodes.back().str()), QStringLiteral("out"));
        for (const auto& s : result.spans)
            QVERIFY(s.endUs >= s.startUs);
    }

    void invalidTeamDoesNotStart()
    {
        TeamBuilder team;
        team.expert("e", "right"); // not connected; the output has no input
        team.node("out", "output");
        std::string problems;
        const auto built = team.build(problems);
        QVERIFY(built);
        const auto started = engine().start(*built, kMath);
        QVERIFY(!started.run);
        QVERIFY(q(started.error).startsWith(QStringLiteral("the team is invalid: ")));
    }
};

QTEST_GUILESS_MAIN(TestEngineFailures)
#include "tst_enginefailures.moc"
