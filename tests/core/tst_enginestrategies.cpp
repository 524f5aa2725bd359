// The engine's strategies end to end on the local backend: routers,
// aggregators, early termination, meetings, decomposition and cascades, read
// back from the run's result and spans. Timing is asserted from spans only.
#include <QElapsedTimer>
#include <QtTest>

#include "support/EngineTestKit.h"

using namespace enginetest;

// The harness's run() and engine() are the suite's own.
class TestEngineStrategies : public QObject, private EngineHarness {
    Q_OBJECT

private slots:
    void initTestCase() { QVERIFY(init()); }
    void cleanupTestCase() { reset(); }

    // ---- routers ----

    void routers_data()
    {
        QTest::addColumn<QByteArray>("router");
        QTest::addColumn<QStringList>("targets"); // "id:model:route label"
        QTest::addColumn<QString>("input");
        QTest::addColumn<QString>("expected");

        const QStringList byDomain{"math:math-only:math", "facts:facts-only:facts", "code:code-only:code"};
        const QByteArray keyword = R"({"strategy": "keyword", "routes": {"math": ["calculate", "/[0-9]+ \\+ [0-9]+/"],
                                       "facts": ["capital"], "code": ["python"]}})";
        const QByteArray keywordWithDefault = R"({"strategy": "keyword", "default": "code",
            "routes": {"math": ["calculate"], "facts": ["capital"], "code": ["python"]}})";

        QTest::newRow("all") << QByteArray(R"({"strategy": "all"})") << byDomain << kMath
                             << "math=ok facts=ok code=ok join=ok out=ok";
        QTest::newRow("keyword: substring")
            << keyword << byDomain << kMath << "math=ok facts=skipped code=skipped join=ok out=ok";
        QTest::newRow("keyword: case-insensitive") << keyword << byDomain << "The CAPITAL of Peru?"
                                                   << "math=skipped facts=ok code=skipped join=ok out=ok";
        QTest::newRow("keyword: regex") << keyword << byDomain << "What is 2 + 2?"
                                        << "math=ok facts=skipped code=skipped join=ok out=ok";
        QTest::newRow("keyword: several routes") << keyword << byDomain << "Calculate the capital in Python."
                                                 << "math=ok facts=ok code=ok join=ok out=ok";
        QTest::newRow("keyword: default") << keywordWithDefault << byDomain << "Which element has atomic number 1?"
                                          << "math=skipped facts=skipped code=ok join=ok out=ok";
        QTest::newRow("keyword: a match, not the default")
            << keywordWithDefault << byDomain << kFrance << "math=skipped facts=ok code=skipped join=ok out=ok";
        QTest::newRow("keyword: no match, no default") << keyword << byDomain << "Which element has atomic number 1?"
                                                       << "math=skipped facts=skipped code=skipped join=skipped "
                                                          "out=skipped";

        // Gate scores: math-only = w(math), math-half = w(math) / 2, facts-only = w(facts); a
        // math question puts nearly all weight on math, so math-half's share is just under 1/3.
        const QStringList gateTargets{"math:math-only:math", "half:math-half:half", "facts:facts-only:facts"};
        QTest::newRow("moe_gate: top 1") << QByteArray(R"({"strategy": "moe_gate", "top_k": 1})") << gateTargets
                                         << kMath << "math=ok half=skipped facts=skipped join=ok out=ok";
        QTest::newRow("moe_gate: top 1, facts") << QByteArray(R"({"strategy": "moe_gate", "top_k": 1})") << gateTargets
                                                << kFrance << "math=skipped half=skipped facts=ok join=ok out=ok";
        QTest::newRow("moe_gate: top 2") << QByteArray(R"({"strategy": "moe_gate", "top_k": 2})") << gateTargets
                                         << kMath << "math=ok half=ok facts=skipped join=ok out=ok";
        QTest::newRow("moe_gate: top 2, min_weight drops the second")
            << QByteArray(R"({"strategy": "moe_gate", "top_k": 2, "min_weight": 0.4})") << gateTargets << kMath
            << "math=ok half=skipped facts=skipped join=ok out=ok";
        QTest::newRow("moe_gate: top 3, min_weight drops the weakest")
            << QByteArray(R"({"strategy": "moe_gate", "top_k": 3, "min_weight": 0.1})") << gateTargets << kMath
            << "math=ok half=ok facts=skipped join=ok out=ok";

        // The llm router asks its model for one label; a reasoning skill of 1 always picks
        // the label that fits, 0 always the other one.
        const QStringList singleCompound{"one:math-only:single", "many:facts-only:compound"};
        QTest::newRow("llm: single") << QByteArray(R"({"strategy": "llm", "model": "right"})") << singleCompound
                                     << kMath << "one=ok many=skipped join=ok out=ok";
        QTest::newRow("llm: compound") << QByteArray(R"({"strategy": "llm", "model": "right"})") << singleCompound
                                       << kTwoCapitals << "one=skipped many=ok join=ok out=ok";
        QTest::newRow("llm: a router without reasoning picks the other")
            << QByteArray(R"({"strategy": "llm", "model": "wrong"})") << singleCompound << kMath
            << "one=skipped many=ok join=ok out=ok";
    }

    void routers()
    {
        QFETCH(QByteArray, router);
        QFETCH(QStringList, targets);
        QFETCH(QString, input);
        QFETCH(QString, expected);
        TeamBuilder team;
        team.node("r", "router", json::parse(router.toStdString())).edge("in", "r");
        team.node("join", "aggregator", json{{"strategy", "concat"}});
        QStringList reported;
        for (const auto& t : targets) {
            const auto parts = t.split(QLatin1Char(':'));
            const auto id = parts[0].toStdString();
            team.expert(id, parts[1].toStdString()).edge("r", id, parts[2].toStdString()).edge(id, "join");
            reported << parts[0];
        }
        team.output("join");
        reported << "join"
                 << "out";
        const auto result = run(team, input.toStdString());
        QCOMPARE(statuses(result, reported), expected);
        QCOMPARE(statusOf(result, "r"), QStringLiteral("ok"));
        // A skipped expert never started: no span of its own.
        for (const auto& t : targets) {
            const auto id = t.section(QLatin1Char(':'), 0, 0).toStdString();
            if (statusOf(result, id) == QStringLiteral("skipped"))
                QCOMPARE(spansOf(result, id, SpanKind::Node).size(), size_t(0));
        }
        const bool anyRan = expected.contains(QStringLiteral("join=ok"));
        QCOMPARE(q(toString(result.status)), anyRan ? QStringLiteral("ok") : QStringLiteral("failed"));
    }

    // ---- aggregators ----

    void aggregators_data()
    {
        QTest::addColumn<QByteArray>("aggregator");
        QTest::addColumn<QStringList>("experts"); // "id:model" or "id:model:weight"
        QTest::addColumn<QString>("input");
        QTest::addColumn<QString>("answer");
        QTest::addColumn<QString>("expected"); // the experts' statuses

        QTest::newRow("majority") << QByteArray(R"({"strategy": "majority"})")
                                  << QStringList{"a:right", "b:right", "c:wrong"} << kYesNo << "yes"
                                  << "a=ok b=ok c=ok";
        QTest::newRow("majority of wrong answers") << QByteArray(R"({"strategy": "majority"})")
                                                   << QStringList{"a:right", "b:wrong", "c:wrong"} << kYesNo << "no"
                                                   << "a=ok b=ok c=ok";
        QTest::newRow("majority, numbers") << QByteArray(R"({"strategy": "majority"})")
                                           << QStringList{"a:right", "b:right", "c:wrong"} << kMath << "783"
                                           << "a=ok b=ok c=ok";
        QTest::newRow("weighted: one heavy vote")
            << QByteArray(R"({"strategy": "weighted"})") << QStringList{"a:right:1", "b:right:1", "c:wrong:3"} << kYesNo
            << "no"
            << "a=ok b=ok c=ok";
        QTest::newRow("weighted: light votes add up")
            << QByteArray(R"({"strategy": "weighted"})") << QStringList{"a:right:2", "b:wrong:1", "c:wrong:0.5"}
            << kYesNo << "yes"
            << "a=ok b=ok c=ok";
        QTest::newRow("best_confidence") << QByteArray(R"({"strategy": "best_confidence"})")
                                         << QStringList{"a:wrong", "b:right", "c:wrong"} << kMath << "783"
                                         << "a=ok b=ok c=ok";
        QTest::newRow("first: the fastest, even if wrong")
            << QByteArray(R"({"strategy": "first"})") << QStringList{"a:wrong-100", "b:slow"} << kYesNo << "no"
            << "a=ok b=cancelled";
        QTest::newRow("first: the fastest, right")
            << QByteArray(R"({"strategy": "first"})") << QStringList{"a:wrong-slow", "b:right-100"} << kYesNo << "yes"
            << "a=cancelled b=ok";
        QTest::newRow("concat") << QByteArray(R"({"strategy": "concat"})") << QStringList{"a:right", "b:wrong"} << kMath
                                << "783"
                                << "a=ok b=ok";
        QTest::newRow("synthesize: all agree") << QByteArray(R"({"strategy": "synthesize", "model": "right"})")
                                               << QStringList{"a:right", "b:right", "c:right"} << kMath << "783"
                                               << "a=ok b=ok c=ok";
        QTest::newRow("synthesize: all agree on a wrong answer")
            << QByteArray(R"({"strategy": "synthesize", "model": "right"})") << QStringList{"a:wrong", "b:wrong"}
            << kYesNo << "no"
            << "a=ok b=ok";
    }

    void aggregators()
    {
        QFETCH(QByteArray, aggregator);
        QFETCH(QStringList, experts);
        QFETCH(QString, input);
        QFETCH(QString, answer);
        QFETCH(QString, expected);
        TeamBuilder team;
        team.node("agg", "aggregator", json::parse(aggregator.toStdString()));
        QStringList ids;
        for (const auto& e : experts) {
            const auto parts = e.split(QLatin1Char(':'));
            json fields = json::object();
            if (parts.size() > 2)
                fields["weight"] = parts[2].toDouble();
            const auto id = parts[0].toStdString();
            team.expert(id, parts[1].toStdString(), fields).edge("in", id).edge(id, "agg");
            ids << parts[0];
        }
        team.output("agg");
        const auto result = run(team, input.toStdString());
        QCOMPARE(statuses(result, ids), expected);
        QCOMPARE(statusOf(result, "agg"), QStringLiteral("ok"));
        QCOMPARE(answerOf(result, "agg"), answer);
        QCOMPARE(q(result.output.answer), answer);
        QCOMPARE(q(toString(result.status)), QStringLiteral("ok"));
        const bool synthesizes = aggregator.contains("synthesize");
        QCOMPARE(spansOf(result, "agg", SpanKind::Attempt).size(), size_t(synthesizes ? 1 : 0));
        if (aggregator.contains("concat")) {
            for (const auto& id : ids) {
                const auto text = resultOf(result, "agg").text;
                QVERIFY(text.find("[" + id.toStdString() + "]\n" + resultOf(result, id.toStdString()).text) !=
                        std::string::npos);
            }
        }
        if (aggregator.contains("best_confidence")) {
            double best = 0;
            for (const auto& id : ids)
                best = std::max(best, resultOf(result, id.toStdString()).confidence);
            QCOMPARE(resultOf(result, "agg").confidence, best);
        }
    }

    // Quorum, min_confidence, deadline_ms and first stop an aggregator before its slow
    // inputs (100 s simulated, 1 s real) answer; those are cancelled, attempts included.
    void earlyTermination_data()
    {
        QTest::addColumn<QByteArray>("aggregator");
        QTest::addColumn<int>("fast");
        QTest::addColumn<int>("slow");

        QTest::newRow("quorum 5 of 9") << QByteArray(R"({"strategy": "majority", "quorum": 5})") << 5 << 4;
        QTest::newRow("min_confidence") << QByteArray(R"({"strategy": "majority", "min_confidence": 0.5})") << 1 << 2;
        QTest::newRow("deadline_ms") << QByteArray(R"({"strategy": "majority", "deadline_ms": 20000})") << 2 << 1;
        QTest::newRow("first") << QByteArray(R"({"strategy": "first"})") << 1 << 3;
    }

    void earlyTermination()
    {
        QFETCH(QByteArray, aggregator);
        QFETCH(int, fast);
        QFETCH(int, slow);
        TeamBuilder team;
        team.node("agg", "aggregator", json::parse(aggregator.toStdString()));
        std::vector<std::string> fastIds;
        std::vector<std::string> slowIds;
        // The slow inputs come first, so their calls are surely in flight when the fast ones
        // (10 ms of real time) answer.
        for (int i = 1; i <= fast + slow; ++i) {
            const bool isFast = i > slow;
            const auto id = (isFast ? "f" : "s") + std::to_string(i);
            team.expert(id, isFast ? "right-1000" : "slow").edge("in", id).edge(id, "agg");
            (isFast ? fastIds : slowIds).push_back(id);
        }
        team.output("agg");
        Recorder recorder;
        const auto result = run(team, kMath, 42, {&recorder});
        QCOMPARE(q(toString(result.status)), QStringLiteral("ok"));
        QCOMPARE(q(result.output.answer), QStringLiteral("783"));
        const auto agg = nodeSpan(result, "agg");
        QCOMPARE(spansOf(result, "agg", SpanKind::Node).size(), size_t(1));
        QCOMPARE(recorder.nodeFinishedCount("agg"), 1);
        for (const auto& id : fastIds) {
            QCOMPARE(statusOf(result, id), QStringLiteral("ok"));
            QVERIFY(agg.startUs >= nodeSpan(result, id).endUs);
        }
        const int64_t slowUs = 100050 * 10; // 100.05 s simulated at time_scale 0.01
        for (const auto& id : slowIds) {
            QCOMPARE(statusOf(result, id), QStringLiteral("cancelled"));
            QCOMPARE(q(toString(nodeSpan(result, id).status)), QStringLiteral("cancelled"));
            const auto tries = spansOf(result, id, SpanKind::Attempt);
            QCOMPARE(tries.size(), size_t(1));
            QCOMPARE(q(toString(tries[0].status)), QStringLiteral("cancelled"));
            QVERIFY(tries[0].endUs >= 0);
            // The aggregator decided long before the slow call would have answered.
            QVERIFY(agg.startUs < tries[0].startUs + slowUs);
            QVERIFY(tries[0].endUs < tries[0].startUs + slowUs);
        }
        // The critical path runs through an input the aggregator waited for, never a cancelled one.
        QCOMPARE(result.criticalPath.nodes.size(), size_t(4));
        const auto through = result.criticalPath.nodes[1].str();
        QVERIFY2(std::find(fastIds.begin(), fastIds.end(), through) != fastIds.end(), through.c_str());
    }

    // ---- coordinators ----

    void meetings_data()
    {
        QTest::addColumn<QString>("mode");
        QTest::addColumn<QStringList>("members");
        QTest::addColumn<QByteArray>("fields");
        QTest::addColumn<bool>("isolated"); // members see only {{task}}, so nobody is persuaded
        QTest::addColumn<QString>("input");
        QTest::addColumn<int>("rounds");
        QTest::addColumn<QString>("answer"); // empty: not checked

        const QStringList threeRight{"right", "right", "right"};
        QTest::newRow("round_robin: agreement ends it")
            << "round_robin" << threeRight << QByteArray(R"({"max_rounds": 3})") << false << kMath << 1 << "783";
        QTest::newRow("round_robin: max_rounds") << "round_robin" << QStringList{"right", "wrong"}
                                                 << QByteArray(R"({"max_rounds": 2})") << true << kYesNo << 2 << "";
        QTest::newRow("debate: consensus ends it")
            << "debate" << threeRight << QByteArray(R"({"max_rounds": 5})") << false << kMath << 1 << "783";
        QTest::newRow("debate: max_rounds") << "debate" << QStringList{"right", "wrong"}
                                            << QByteArray(R"({"max_rounds": 3})") << true << kYesNo << 3 << "";
        QTest::newRow("debate: partial consensus is enough")
            << "debate" << QStringList{"right", "right", "wrong"}
            << QByteArray(R"({"max_rounds": 3, "consensus": 0.6})") << true << kYesNo << 1 << "yes";
        QTest::newRow("debate: full consensus needed")
            << "debate" << QStringList{"right", "right", "wrong"} << QByteArray(R"({"max_rounds": 4, "consensus": 1})")
            << true << kYesNo << 4 << "yes";
    }

    void meetings()
    {
        QFETCH(QString, mode);
        QFETCH(QStringList, members);
        QFETCH(QByteArray, fields);
        QFETCH(bool, isolated);
        QFETCH(QString, input);
        QFETCH(int, rounds);
        QFETCH(QString, answer);
        TeamBuilder team;
        json config = json::parse(fields.toStdString());
        config["mode"] = mode.toStdString();
        team.node("meet", "coordinator", config).edge("in", "meet");
        std::vector<std::string> ids;
        for (int i = 0; i < members.size(); ++i) {
            const auto id = "m" + std::to_string(i + 1);
            json memberFields = json::object();
            if (isolated)
                memberFields["prompt"] = "{{task}}";
            team.expert(id, members[i].toStdString(), memberFields).member("meet", id);
            ids.push_back(id);
        }
        team.output("meet");
        const auto result = run(team, input.toStdString());
        QCOMPARE(statusOf(result, "meet"), QStringLiteral("ok"));
        if (!answer.isEmpty())
            QCOMPARE(q(result.output.answer), answer);
        const auto roundSpans = spansOf(result, "meet", SpanKind::Round);
        QCOMPARE(int(roundSpans.size()), rounds);
        for (size_t i = 0; i < roundSpans.size(); ++i) {
            QCOMPARE(roundSpans[i].round, int(i + 1));
            QCOMPARE(q(roundSpans[i].name), QStringLiteral("round %1").arg(i + 1));
            QCOMPARE(roundSpans[i].parent, nodeSpan(result, "meet").id);
            QCOMPARE(q(toString(roundSpans[i].status)), QStringLiteral("ok"));
        }
        for (const auto& id : ids) {
            QCOMPARE(statusOf(result, id), QStringLiteral("ok"));
            const auto turns = spansOf(result, id, SpanKind::Node);
            QCOMPARE(int(turns.size()), rounds);
            for (const auto& turn : turns) {
                const auto& parent = result.spans[turn.parent - 1];
                QVERIFY(parent.kind == SpanKind::Round);
                QCOMPARE(parent.round, turn.round);
                QCOMPARE(spansOf(result, id, SpanKind::Attempt).size(), size_t(rounds));
            }
        }
        if (mode == QStringLiteral("round_robin")) {
            // Members speak in turn: each starts after the previous one ended...
            std::vector<Span> turns;
            for (const auto& s : result.spans) {
                if (s.kind == SpanKind::Node && s.parent != 0)
                    turns.push_back(s);
            }
            for (size_t i = 1; i < turns.size(); ++i)
                QVERIFY(turns[i].startUs >= turns[i - 1].endUs);
            // ...over a shared transcript that grows with each speaker.
            if (!isolated) {
                int64_t previous = 0;
                for (const auto& id : ids) {
                    const auto first = firstAttempt(result, id);
                    QVERIFY(first.tokensIn > previous);
                    previous = first.tokensIn;
                }
            }
        }
    }

    void decompose_data()
    {
        QTest::addColumn<QString>("input");
        QTest::addColumn<QStringList>("members");       // models, in member order
        QTest::addColumn<QStringList>("memberAnswers"); // each member's answer to its subtask
        QTest::addColumn<QString>("answer");

        QTest::newRow("two questions") << kTwoCapitals << QStringList{"facts-only", "facts-only"}
                                       << QStringList{"paris", "tokyo"} << "paris; tokyo";
        QTest::newRow("a calculation and a question")
            << kCompound << QStringList{"math-only", "facts-only"} << QStringList{"783", "paris"} << "783; paris";
        // The second part is solved first: the combination still follows the subtasks' order.
        QTest::newRow("parts combined in subtask order")
            << kCompound << QStringList{"math-only-slow", "facts-only"} << QStringList{"783", "paris"} << "783; paris";
    }

    void decompose()
    {
        QFETCH(QString, input);
        QFETCH(QStringList, members);
        QFETCH(QStringList, memberAnswers);
        QFETCH(QString, answer);
        TeamBuilder team;
        team.node("plan", "coordinator", json{{"mode", "decompose"}, {"model", "right"}}).edge("in", "plan");
        std::vector<std::string> ids;
        for (int i = 0; i < members.size(); ++i) {
            const auto id = "sub" + std::to_string(i + 1);
            team.expert(id, members[i].toStdString()).member("plan", id);
            ids.push_back(id);
        }
        team.output("plan");
        const auto result = run(team, input.toStdString());
        QCOMPARE(q(toString(result.status)), QStringLiteral("ok"));
        QCOMPARE(q(result.output.answer), answer);
        QStringList rounds;
        for (const auto& s : spansOf(result, "plan", SpanKind::Round))
            rounds << q(s.name);
        QCOMPARE(rounds, (QStringList{"plan", "solve", "combine"}));
        const auto roundSpans = spansOf(result, "plan", SpanKind::Round);
        // The coordinator's model plans and combines: one attempt under each of those rounds.
        const auto coordinatorCalls = spansOf(result, "plan", SpanKind::Attempt);
        QCOMPARE(coordinatorCalls.size(), size_t(2));
        QCOMPARE(coordinatorCalls[0].parent, roundSpans[0].id);
        QCOMPARE(coordinatorCalls[1].parent, roundSpans[2].id);
        for (size_t i = 0; i < ids.size(); ++i) {
            const auto turns = spansOf(result, ids[i], SpanKind::Node);
            QCOMPARE(turns.size(), size_t(1));
            QCOMPARE(turns[0].parent, roundSpans[1].id);
            QCOMPARE(statusOf(result, ids[i]), QStringLiteral("ok"));
            QCOMPARE(answerOf(result, ids[i]), memberAnswers[int(i)]);
            // Members solve their parts in parallel, after the plan and before the combination.
            QVERIFY(turns[0].startUs >= coordinatorCalls[0].endUs);
            QVERIFY(turns[0].endUs <= coordinatorCalls[1].startUs);
        }
    }

    void cascade_data()
    {
        QTest::addColumn<double>("threshold");
        QTest::addColumn<QStringList>("members");
        QTest::addColumn<QString>("expected");
        QTest::addColumn<int>("steps");
        QTest::addColumn<QString>("answer"); // empty: not checked

        QTest::newRow("a confident first member stops it")
            << 0.5 << QStringList{"right", "right", "right"} << "c1=ok c2=skipped c3=skipped" << 1 << "783";
        QTest::newRow("a doubtful first member escalates")
            << 0.7 << QStringList{"doubtful", "right", "right"} << "c1=ok c2=ok c3=skipped" << 2 << "783";
        QTest::newRow("nobody is sure: every member speaks")
            << 0.99 << QStringList{"wrong", "wrong", "wrong"} << "c1=ok c2=ok c3=ok" << 3 << "";
    }

    void cascade()
    {
        QFETCH(double, threshold);
        QFETCH(QStringList, members);
        QFETCH(QString, expected);
        QFETCH(int, steps);
        QFETCH(QString, answer);
        TeamBuilder team;
        team.node("cas", "coordinator", json{{"mode", "cascade"}, {"threshold", threshold}}).edge("in", "cas");
        QStringList ids;
        for (int i = 0; i < members.size(); ++i) {
            const auto id = "c" + std::to_string(i + 1);
            team.expert(id, members[i].toStdString()).member("cas", id);
            ids << q(id);
        }
        team.output("cas");
        const auto result = run(team, kMath);
        QCOMPARE(statuses(result, ids), expected);
        QCOMPARE(statusOf(result, "cas"), QStringLiteral("ok"));
        if (!answer.isEmpty())
            QCOMPARE(q(result.output.answer), answer);
        const auto roundSpans = spansOf(result, "cas", SpanKind::Round);
        QCOMPARE(int(roundSpans.size()), steps);
        for (int i = 0; i < steps; ++i)
            QCOMPARE(q(roundSpans[size_t(i)].name), QStringLiteral("step %1: c%1").arg(i + 1));
        // Only the members that spoke called a model; the cascade stops at the first sure one.
        int spoke = 0;
        for (const auto& id : ids)
            spoke += int(spansOf(result, id.toStdString(), SpanKind::Attempt).size());
        QCOMPARE(spoke, steps);
        const auto last = resultOf(result, "c" + std::to_string(steps));
        if (steps < members.size())
            QVERIFY(last.confidence >= threshold);
        for (int i = 1; i < steps; ++i)
            QVERIFY(resultOf(result, "c" + std::to_string(i)).confidence < threshold);
    }
};

QTEST_GUILESS_MAIN(TestEngineStrategies)
#include "tst_enginestrategies.moc"
