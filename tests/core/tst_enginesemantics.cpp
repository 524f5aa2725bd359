// The engine's execution semantics on the local backend: determinism,
// arrival order, real concurrency of branches, a join that runs once, every
// event seen once, skipped branches and partial inputs.
#include <QElapsedTimer>
#include <QtTest>

#include "support/EngineTestKit.h"

using namespace enginetest;

// The harness's run() and engine() are the suite's own.
class TestEngineSemantics : public QObject, private EngineHarness {
    Q_OBJECT

private slots:
    void initTestCase() { QVERIFY(init()); }
    void cleanupTestCase() { reset(); }

    // ---- determinism ----

    void determinism_data()
    {
        QTest::addColumn<QString>("example");
        QTest::addColumn<QString>("input");
        QTest::newRow("mixture-of-agents") << "mixture-of-agents.team.json" << kFrance;
        QTest::newRow("debate") << "debate.team.json" << kYesNo;
        QTest::newRow("cascade") << "cascade.team.json" << kMath;
        QTest::newRow("triage") << "triage.team.json" << kCompound;
        QTest::newRow("triage, single question") << "triage.team.json" << kFrance;
        QTest::newRow("review-board") << "review-board.team.json" << kYesNo;
        QTest::newRow("keyword-vote") << "keyword-vote.team.json" << kMath;
        QTest::newRow("adaptive-panel") << "adaptive-panel.team.json" << kYesNo;
        QTest::newRow("mosaic") << "mosaic.team.json" << kFrance;
        QTest::newRow("fast-path") << "fast-path.team.json" << kFrance;
    }

    void determinism()
    {
        QFETCH(QString, example);
        QFETCH(QString, input);
        auto team = loadExample(example, 0.005);
        QVERIFY(team);
        // What depends on real time by design goes: early termination (quorum, min_confidence,
        // deadline_ms decide on what has arrived by then), and real-time limits that a call near
        // them may meet or miss on a loaded machine (timeouts, max_wall_ms).
        for (auto& node : team->nodes) {
            node.config.quorum.reset();
            node.config.minConfidence.reset();
            node.config.deadlineMs.reset();
            if (node.config.call.model)
                node.config.call.timeoutMs = 3'600'000;
        }
        if (team->budget)
            team->budget->maxWallMs.reset();
        const auto first = run(*team, input.toStdString(), 7);
        const auto second = run(*team, input.toStdString(), 7);
        QCOMPARE(q(toString(second.status)), q(toString(first.status)));
        const auto resultsA = describeResults(first);
        const auto resultsB = describeResults(second);
        QCOMPARE(resultsB.size(), resultsA.size());
        for (size_t i = 0; i < resultsA.size(); ++i)
            QCOMPARE(q(resultsB[i]), q(resultsA[i]));
        QVERIFY(first.output == second.output);
        QCOMPARE(second.tokensIn, first.tokensIn);
        QCOMPARE(second.tokensOut, first.tokensOut);
        QCOMPARE(second.costUsd, first.costUsd);
        QCOMPARE(second.calls, first.calls);
        QCOMPARE(second.spans.size(), first.spans.size());
        const auto a = describeAll(first);
        const auto b = describeAll(second);
        for (size_t i = 0; i < std::min(a.size(), b.size()); ++i)
            QCOMPARE(q(b[i]), q(a[i]));
        // Planned latencies are the simulator's draws: they must be there, and equal.
        QVERIFY(std::any_of(first.spans.begin(), first.spans.end(), [](const Span& s) { return s.plannedMs > 0; }));

        const auto other = run(*team, input.toStdString(), 8);
        QVERIFY2(describeAll(other) != a, "another seed changes nothing");
    }

    // The texts a join sees must not depend on which input happened to arrive first: two
    // inputs with the same simulated latency race on the real clock. Here the race is made
    // certain by swapping which input is quicker (max_tokens shortens a reply without changing
    // its text), and the join's prompt and result must stay the same.
    void joinInputsDoNotDependOnArrivalOrder()
    {
        const auto build = [](bool aFirst) {
            TeamBuilder team(0.3);
            json quick = json::object();
            quick["params"] = json{{"max_tokens", 5}}; // 55 ms instead of 150 ms
            team.expert("a", "right", aFirst ? quick : json::object()).edge("in", "a");
            team.expert("b", "right", aFirst ? json::object() : quick).edge("in", "b");
            team.expert("j", "right").edge("a", "j").edge("b", "j");
            team.node("c", "aggregator", json{{"strategy", "concat"}}).edge("a", "c").edge("b", "c");
            team.node("v", "aggregator", json{{"strategy", "concat"}}).edge("j", "v").edge("c", "v");
            return team.output("v");
        };
        const auto one = run(build(true), kMath);
        const auto two = run(build(false), kMath);
        QCOMPARE(q(toString(one.status)), QStringLiteral("ok"));
        QCOMPARE(q(toString(two.status)), QStringLiteral("ok"));
        // The premise: a and b said the same in both runs, and arrived in opposite orders.
        QCOMPARE(q(resultOf(two, "a").text), q(resultOf(one, "a").text));
        QCOMPARE(q(resultOf(two, "b").text), q(resultOf(one, "b").text));
        QVERIFY(nodeSpan(one, "a").endUs < nodeSpan(one, "b").endUs);
        QVERIFY(nodeSpan(two, "b").endUs < nodeSpan(two, "a").endUs);
        // The expert's prompt ({{inputs}}) and so its reply; the concatenation's text.
        QCOMPARE(firstAttempt(two, "j").tokensIn, firstAttempt(one, "j").tokensIn);
        QCOMPARE(q(resultOf(two, "j").text), q(resultOf(one, "j").text));
        QCOMPARE(resultOf(two, "j").confidence, resultOf(one, "j").confidence);
        QCOMPARE(q(resultOf(two, "c").text), q(resultOf(one, "c").text));
    }

    // The same in a debate: what members see of the previous round (the transcript) and
    // the final vote must not depend on which member happened to answer first.
    void debateDoesNotDependOnArrivalOrder()
    {
        const auto build = [](bool firstQuicker) {
            TeamBuilder team(0.3);
            json quick = json::object();
            quick["params"] = json{{"max_tokens", 5}};
            team.node("meet", "coordinator", json{{"mode", "debate"}, {"max_rounds", 2}}).edge("in", "meet");
            team.expert("m1", "right", firstQuicker ? quick : json::object()).member("meet", "m1");
            team.expert("m2", "wrong", firstQuicker ? json::object() : quick).member("meet", "m2");
            return team.output("meet");
        };
        const auto one = run(build(true), kYesNo);
        const auto two = run(build(false), kYesNo);
        QCOMPARE(q(toString(one.status)), QStringLiteral("ok"));
        QCOMPARE(q(toString(two.status)), QStringLiteral("ok"));
        // The premise: round 1 was said alike and finished in opposite orders, and a second round followed.
        const auto turns = [](const RunResult& r, const std::string& id) { return spansOf(r, id, SpanKind::Node); };
        QCOMPARE(turns(one, "m1").size(), size_t(2));
        QCOMPARE(turns(two, "m1").size(), size_t(2));
        QVERIFY(turns(one, "m1")[0].endUs < turns(one, "m2")[0].endUs);
        QVERIFY(turns(two, "m2")[0].endUs < turns(two, "m1")[0].endUs);
        // Round 2 prompts hold the round 1 transcript: same length, and they must be the same text.
        QCOMPARE(spansOf(two, "m1", SpanKind::Attempt)[1].tokensIn, spansOf(one, "m1", SpanKind::Attempt)[1].tokensIn);
        QCOMPARE(q(resultOf(two, "m1").text), q(resultOf(one, "m1").text));
        QCOMPARE(q(resultOf(two, "m2").text), q(resultOf(one, "m2").text));
        QCOMPARE(q(resultOf(two, "meet").text), q(resultOf(one, "meet").text));
        QCOMPARE(q(two.output.answer), q(one.output.answer));
    }

    // ---- concurrency ----

    void branchesRunConcurrently()
    {
        // time_scale 0.1: the branches take 30 ms and 10 ms of real time.
        TeamBuilder team(0.1);
        team.expert("long", "right-300").edge("in", "long");
        team.expert("short", "right-100").edge("in", "short");
        team.node("join", "aggregator", json{{"strategy", "concat"}}).edge("long", "join").edge("short", "join");
        team.output("join");
        const auto result = run(team, kMath);
        QCOMPARE(q(toString(result.status)), QStringLiteral("ok"));
        const auto longSpan = nodeSpan(result, "long");
        const auto shortSpan = nodeSpan(result, "short");
        const auto join = nodeSpan(result, "join");
        QVERIFY(longSpan.startUs < shortSpan.endUs);
        QVERIFY(shortSpan.startUs < longSpan.endUs);
        QVERIFY(shortSpan.endUs < longSpan.endUs); // the short branch does not wait for the long one
        QVERIFY(join.startUs >= longSpan.endUs);
        QCOMPARE(firstAttempt(result, "long").plannedMs, 300.0);
        QCOMPARE(firstAttempt(result, "short").plannedMs, 100.0);
    }

    void joinRunsOnce_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QStringList>("models");
        const QStringList same{"right", "right", "right", "right", "right"};
        const QStringList spread{"right-100", "right", "right-300", "wrong-100", "right-1000"};
        QTest::newRow("aggregator, same latency") << "aggregator" << same;
        QTest::newRow("aggregator, spread") << "aggregator" << spread;
        QTest::newRow("expert, same latency") << "expert" << same;
        QTest::newRow("expert, spread") << "expert" << spread;
    }

    void joinRunsOnce()
    {
        QFETCH(QString, kind);
        QFETCH(QStringList, models);
        for (int repeat = 0; repeat < 5; ++repeat) {
            TeamBuilder team;
            if (kind == QStringLiteral("expert"))
                team.expert("join", "right");
            else
                team.node("join", "aggregator", json{{"strategy", "majority"}});
            for (int i = 0; i < models.size(); ++i) {
                const auto id = "e" + std::to_string(i + 1);
                team.expert(id, models[i].toStdString()).edge("in", id).edge(id, "join");
            }
            team.output("join");
            Recorder recorder;
            const auto result = run(team, kMath, 42, {&recorder});
            QCOMPARE(q(toString(result.status)), QStringLiteral("ok"));
            QCOMPARE(spansOf(result, "join", SpanKind::Node).size(), size_t(1));
            QCOMPARE(recorder.nodeFinishedCount("join"), 1);
            QCOMPARE(spansOf(result, "join", SpanKind::Attempt).size(), size_t(kind == QStringLiteral("expert")));
            const auto join = nodeSpan(result, "join");
            for (int i = 1; i <= models.size(); ++i)
                QVERIFY(join.startUs >= nodeSpan(result, "e" + std::to_string(i)).endUs);
            QCOMPARE(q(result.output.answer), QStringLiteral("783"));
        }
    }

    void observerSeesEveryEventOnce()
    {
        TeamBuilder team;
        team.node("r", "router",
                  json{{"strategy", "keyword"},
                       {"routes", json{{"math", json::array({"calculate"})}, {"facts", json::array({"capital"})}}}})
            .edge("in", "r");
        team.expert("a", "right").edge("r", "a", "math");
        team.expert("b", "right").edge("r", "b", "facts");
        team.node("join", "aggregator", json{{"strategy", "majority"}}).edge("a", "join").edge("b", "join");
        team.output("join");
        Recorder recorder;
        const auto result = run(team, kMath, 42, {&recorder});
        QCOMPARE(recorder.runsStarted(), 1);
        QCOMPARE(recorder.runsFinished(), 1);
        QCOMPARE(recorder.nodesFinished(), result.results.size());
        for (const auto& [id, r] : result.results)
            QCOMPARE(recorder.nodeFinishedCount(id.str()), 1);
        QCOMPARE(recorder.spansStarted(), result.spans.size());
        QCOMPARE(recorder.spansFinished(), result.spans.size());
        for (const auto& s : result.spans) {
            QVERIFY(s.endUs >= s.startUs);
            QVERIFY(s.status != Status::Running && s.status != Status::Queued);
        }
        QCOMPARE(result.calls, 1);
    }

    // ---- skips and failures ----

    void skippedBranchSkipsDownstream()
    {
        TeamBuilder team;
        team.node("r", "router",
                  json{{"strategy", "keyword"},
                       {"routes", json{{"math", json::array({"calculate"})}, {"facts", json::array({"capital"})}}}})
            .edge("in", "r");
        team.expert("a", "right").edge("r", "a", "math");
        team.expert("a2", "right").edge("a", "a2");
        team.expert("b", "right").edge("r", "b", "facts");
        team.expert("b2", "right").edge("b", "b2");
        team.expert("b3", "right").edge("b2", "b3");
        team.node("join", "aggregator", json{{"strategy", "concat"}}).edge("a2", "join").edge("b3", "join");
        team.output("join");
        const auto result = run(team, kMath);
        QCOMPARE(statuses(result, {"a", "a2", "b", "b2", "b3", "join", "out"}),
                 QStringLiteral("a=ok a2=ok b=skipped b2=skipped b3=skipped join=ok out=ok"));
        for (const char* id : {"b", "b2", "b3"})
            QCOMPARE(spansOf(result, id, SpanKind::Node).size(), size_t(0));
        QCOMPARE(q(toString(result.status)), QStringLiteral("ok"));
        QCOMPARE(q(result.output.answer), QStringLiteral("783"));
    }

    // The hang of release 0.x: a meeting behind a route not taken was skipped,
    // its members never settled, and the run never ended.
    void meetingBehindAnUntakenRouteIsSkippedWithItsMembers_data()
    {
        QTest::addColumn<QString>("mode");
        for (const char* mode : {"round_robin", "debate", "decompose", "cascade"})
            QTest::newRow(mode) << QString::fromLatin1(mode);
    }
    void meetingBehindAnUntakenRouteIsSkippedWithItsMembers()
    {
        QFETCH(QString, mode);
        TeamBuilder team;
        team.node("r", "router",
                  json{{"strategy", "keyword"},
                       {"routes", json{{"math", json::array({"calculate"})}, {"facts", json::array({"capital"})}}}})
            .edge("in", "r");
        team.expert("a", "right").edge("r", "a", "math");
        json meeting{{"mode", mode.toStdString()}};
        if (mode == QStringLiteral("decompose"))
            meeting["model"] = "right";
        team.node("meet", "coordinator", meeting).edge("r", "meet", "facts");
        team.expert("m1", "right").member("meet", "m1");
        team.expert("m2", "right").member("meet", "m2");
        team.node("join", "aggregator", json{{"strategy", "majority"}}).edge("a", "join").edge("meet", "join");
        team.output("join");
        Recorder recorder;
        const auto result = run(team, kMath, 42, {&recorder});
        QCOMPARE(statuses(result, {"a", "meet", "m1", "m2", "join", "out"}),
                 QStringLiteral("a=ok meet=skipped m1=skipped m2=skipped join=ok out=ok"));
        QCOMPARE(q(toString(result.status)), QStringLiteral("ok"));
        QCOMPARE(q(result.output.answer), QStringLiteral("783"));
        for (const char* id : {"meet", "m1", "m2"}) {
            QCOMPARE(spansOf(result, id, SpanKind::Node).size(), size_t(0));
            QCOMPARE(recorder.nodeFinishedCount(id), 1);
        }
        QCOMPARE(recorder.nodesFinished(), size_t(8));
        QCOMPARE(recorder.runsFinished(), 1);
    }

    // A meeting that is cancelled before it starts takes its members with it.
    void meetingCancelledBeforeItStartsCancelsItsMembers()
    {
        TeamBuilder team;
        team.expert("slow", "slow").edge("in", "slow");
        team.node("meet", "coordinator", json{{"mode", "debate"}}).edge("slow", "meet");
        team.expert("m1", "right").member("meet", "m1");
        team.expert("m2", "right").member("meet", "m2");
        team.output("meet");
        Recorder recorder;
        std::string problems;
        const auto built = team.build(problems);
        QVERIFY2(built, problems.c_str());
        auto started = engine().start(*built, kMath, 42, {&recorder});
        QVERIFY(started.run);
        QVERIFY(recorder.waitForTokens(1, 10s));
        started.run->cancel();
        QVERIFY(started.run->waitFor(10s));
        const auto result = started.run->wait();
        QCOMPARE(statuses(result, {"slow", "meet", "m1", "m2", "out"}),
                 QStringLiteral("slow=cancelled meet=cancelled m1=cancelled m2=cancelled out=cancelled"));
        QCOMPARE(q(toString(result.status)), QStringLiteral("cancelled"));
        QCOMPARE(recorder.nodesFinished(), size_t(6));
    }

    void inputsAllFailed_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("error");
        QTest::newRow("expert") << "expert"
                                << "no upstream result to work on";
        QTest::newRow("aggregator") << "aggregator"
                                    << "every input failed";
    }

    void inputsAllFailed()
    {
        QFETCH(QString, kind);
        QFETCH(QString, error);
        TeamBuilder team;
        if (kind == QStringLiteral("expert"))
            team.expert("join", "right");
        else
            team.node("join", "aggregator", json{{"strategy", "majority"}});
        team.expert("f1", "flaky").edge("in", "f1").edge("f1", "join");
        team.expert("f2", "flaky").edge("in", "f2").edge("f2", "join");
        team.output("join");
        const auto result = run(team, kMath);
        QCOMPARE(statuses(result, {"f1", "f2", "join", "out"}),
                 QStringLiteral("f1=failed f2=failed join=failed out=failed"));
        QCOMPARE(q(resultOf(result, "join").error), error);
        QCOMPARE(spansOf(result, "join", SpanKind::Node).size(), size_t(1));
        QCOMPARE(spansOf(result, "join", SpanKind::Attempt).size(), size_t(0));
        QCOMPARE(q(toString(result.status)), QStringLiteral("failed"));
    }

    void failedExpertWithVotesLeftIsPartial()
    {
        TeamBuilder team;
        team.node("vote", "aggregator", json{{"strategy", "majority"}});
        const std::vector<std::pair<std::string, std::string>> experts{{"a", "right"}, {"b", "right"}, {"c", "flaky"}};
        for (const auto& [id, model] : experts)
            team.expert(id, model).edge("in", id).edge(id, "vote");
        team.output("vote");
        const auto result = run(team, kMath);
        QCOMPARE(statuses(result, {"a", "b", "c", "vote"}), QStringLiteral("a=ok b=ok c=failed vote=ok"));
        QCOMPARE(q(result.output.answer), QStringLiteral("783"));
        QCOMPARE(q(toString(result.status)), QStringLiteral("partial"));
    }
};

QTEST_GUILESS_MAIN(TestEngineSemantics)
#include "tst_enginesemantics.moc"
