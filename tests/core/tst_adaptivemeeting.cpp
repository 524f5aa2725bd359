// The adaptive meeting end to end on the simulated clock: which members it
// asks and when (exact spans: names, parents, rounds, statuses, start and end
// microseconds), and each round's decision on its span's note — consensus,
// threshold, the choice order by gate score (a scripted gate, the local gate,
// and edge order without one), `initial` above the member count, max_rounds,
// no member left, the budget guard, and cancellation and timeouts.
#include <QtTest>

#include "support/EngineTestKit.h"

#include "conclave/engine/Run.h"
#include "conclave/engine/ThreadPool.h"
#include "conclave/engine/VirtualClock.h"
#include "conclave/http/HttpHub.h"
#include "conclave/session/BackendFactory.h"

using namespace enginetest;

namespace {

// The meeting's node span, its rounds (with their notes) and its members'
// turns, in the order they were opened: "round 1 0..150000 ok | stop: …",
// "  m1 #1 0..150000 ok".
QStringList meetingSpans(const RunResult& r, const std::string& coordinator)
{
    QStringList out;
    if (qEnvironmentVariableIsSet("ADAPTIVE_DEBUG"))
        for (const auto& s : r.spans)
            if (!s.note.empty())
                qWarning("%s", s.note.c_str());
    for (const auto& s : r.spans) {
        const QString times = QStringLiteral("%1..%2 %3").arg(s.startUs).arg(s.endUs).arg(q(toString(s.status)));
        if (s.node.str() == coordinator && s.kind == SpanKind::Node && s.parent == 0)
            out << q(coordinator) + ' ' + times;
        else if (s.node.str() == coordinator && s.kind == SpanKind::Round)
            out << q(s.name) + ' ' + times + " | " + q(s.note);
        else if (s.kind == SpanKind::Node && s.parent > 0) {
            const auto& round = r.spans[s.parent - 1];
            if (round.node.str() == coordinator && round.kind == SpanKind::Round && round.round == s.round)
                out << "  " + q(s.node.str()) + " #" + QString::number(s.round) + ' ' + times;
        }
    }
    return out;
}

// in -> meet (adaptive, `fields`) -> out, with members m1.. on these models in edge order.
TeamBuilder panel(const QStringList& models, json fields = json::object())
{
    TeamBuilder team;
    fields["mode"] = "adaptive";
    team.node("meet", "coordinator", fields).edge("in", "meet");
    for (int i = 0; i < models.size(); ++i) {
        const auto id = "m" + std::to_string(i + 1);
        team.expert(id, models[i].toStdString()).member("meet", id);
    }
    team.output("meet");
    return team;
}

QStringList memberIds(int count)
{
    QStringList ids;
    for (int i = 1; i <= count; ++i)
        ids << QStringLiteral("m%1").arg(i);
    return ids;
}

} // namespace

class TestAdaptiveMeeting : public QObject {
    Q_OBJECT

    EngineHarness m_h;

    // A run of `builder` on the virtual clock with the team's local backends
    // but `gate` as the run's gate (empty: no gate at all).
    RunResult runWithGate(const TeamBuilder& builder, const std::string& input, GateScorer gate,
                          std::optional<double> cancelAfterMs = std::nullopt)
    {
        std::string problems;
        const auto team = builder.build(problems);
        if (!team) {
            QTest::qFail(("the team does not load: " + problems).c_str(), __FILE__, __LINE__);
            return {};
        }
        const auto prepared = m_h.engine().prepare(*team);
        if (!prepared.team) {
            QTest::qFail(("the team does not prepare: " + prepared.error).c_str(), __FILE__, __LINE__);
            return {};
        }
        ThreadPool pool(2);
        HttpHub hub;
        auto clock = std::make_shared<VirtualClock>(pool);
        auto made = BackendFactory(m_h.engine().resources(), hub, clock).make(*prepared.team, input, 42);
        RunOptions options;
        options.input = input;
        options.seed = made.seed;
        options.cancelAfterMs = cancelAfterMs;
        auto run = std::make_shared<Run>(prepared.team->plan, std::move(options), std::move(made.backends),
                                         std::move(gate), clock);
        run->start();
        if (!run->waitFor(60s)) {
            QTest::qFail("the run did not finish within a minute", __FILE__, __LINE__);
            run->cancel();
        }
        return run->wait();
    }

    // The same without a gate: members in edge order. (The local gate ranks
    // the kit's `right` above `wrong`, whose skills are all 1 and all 0.)
    RunResult runInEdgeOrder(const TeamBuilder& builder, const std::string& input,
                             std::optional<double> cancelAfterMs = std::nullopt)
    {
        return runWithGate(builder, input, GateScorer{}, cancelAfterMs);
    }

    // A gate that scores each model by this table (0 for any other).
    static GateScorer scripted(std::map<std::string, double> byModel)
    {
        return [byModel](std::string_view, const std::vector<std::string>& models) {
            std::vector<double> scores;
            for (const auto& m : models)
                scores.push_back(byModel.count(m) ? byModel.at(m) : 0.0);
            return scores;
        };
    }

    // Models like the kit's `right` and `wrong` (150 ms, exact), under names a scripted gate can tell apart.
    static void addNamedModels(TeamBuilder& team, const std::map<std::string, bool>& rightByName)
    {
        for (const auto& [name, right] : rightByName)
            team.doc()["backends"]["local"]["models"][name] = timed(skillsAll(right ? 1 : 0), 150);
    }

private slots:
    void initTestCase() { QVERIFY(m_h.init()); }
    void cleanupTestCase() { m_h.reset(); }

    void consensusStopsAfterTheFirstRound()
    {
        const auto r = m_h.runVirtual(panel({"right", "right", "right", "right"}), kMath);
        QCOMPARE(q(toString(r.status)), QString("ok"));
        QCOMPARE(q(r.output.answer), QString("783"));
        // Equal gate scores: the first two in edge order, together; nobody else.
        QCOMPARE(meetingSpans(r, "meet"), (QStringList{
                                              "meet 0..150000 ok",
                                              "round 1 0..150000 ok | stop: 2 of 2 agree (consensus 1.00)",
                                              "  m1 #1 0..150000 ok",
                                              "  m2 #1 0..150000 ok",
                                          }));
        QCOMPARE(statuses(r, memberIds(4)), QString("m1=ok m2=ok m3=skipped m4=skipped"));
        QCOMPARE(spansOf(r, "m3", SpanKind::Attempt).size(), size_t(0));
        QCOMPARE(spansOf(r, "m4", SpanKind::Node).size(), size_t(0));
        // The answer carries the transcript, as the other modes' do.
        QVERIFY2(r.output.text.find("m1 (round 1)") != std::string::npos, r.output.text.c_str());
        QVERIFY2(r.output.text.find("\nAnswer: 783") != std::string::npos, r.output.text.c_str());
    }

    void oneMemberIsNoConsensusButItsConfidenceCanStopIt()
    {
        // initial 1: a lone answer agrees with nobody, so only the threshold can stop after it.
        const auto r = m_h.runVirtual(panel({"right", "right"}, json{{"initial", 1}, {"threshold", 0.7}}), kMath);
        const auto first = resultOf(r, "m1");
        QVERIFY(first.confidence >= 0.7);
        QCOMPARE(meetingSpans(r, "meet"),
                 (QStringList{
                     "meet 0..150000 ok",
                     QStringLiteral("round 1 0..150000 ok | stop: confidence %1 ≥ threshold 0.70")
                         .arg(first.confidence, 0, 'f', 2),
                     "  m1 #1 0..150000 ok",
                 }));
        QCOMPARE(statuses(r, memberIds(2)), QString("m1=ok m2=skipped"));
        QCOMPARE(r.output.confidence, first.confidence);
    }

    void theAggregatedConfidenceCanStopWithoutConsensus()
    {
        // 1 of 2 agree: short of consensus 1, but the majority's confidence
        // (its share 1/2 x its voter's confidence) reaches 0.4.
        const auto r = runInEdgeOrder(panel({"right", "wrong", "right"}, json{{"threshold", 0.4}}), kMath);
        const double confidence = r.output.confidence;
        QCOMPARE(confidence, resultOf(r, "m1").confidence / 2);
        QVERIFY(confidence >= 0.4);
        QCOMPARE(meetingSpans(r, "meet"),
                 (QStringList{
                     "meet 0..150000 ok",
                     QStringLiteral("round 1 0..150000 ok | stop: confidence %1 ≥ threshold 0.40")
                         .arg(confidence, 0, 'f', 2),
                     "  m1 #1 0..150000 ok",
                     "  m2 #1 0..150000 ok",
                 }));
        QCOMPARE(q(r.output.answer), QString("783"));
        QCOMPARE(statuses(r, memberIds(3)), QString("m1=ok m2=ok m3=skipped"));
    }

    void escalationFollowsTheGateThenEdgeOrder_data()
    {
        QTest::addColumn<bool>("gated");
        QTest::addColumn<QStringList>("expected");
        QTest::addColumn<QStringList>("notes");
        // Edge order: a (right), b (wrong), c (right), d (right). Never settled
        // (threshold 0.99, consensus 1), so every member is asked in turn.
        QTest::newRow("scripted gate: b .9, d .8, a .5, c .1")
            << true << QStringList{"b", "d", "a", "c"}
            << QStringList{"ask a: 1 of 2 agree, confidence 0.39 < 0.99", "ask c: 2 of 3 agree, confidence 0.54 < 0.99",
                           "stop: no member left (3 of 4 agree, confidence 0.65 < 0.99)"};
        QTest::newRow("no gate: edge order")
            << false << QStringList{"a", "b", "c", "d"}
            << QStringList{"ask c: 1 of 2 agree, confidence 0.42 < 0.99", "ask d: 2 of 3 agree, confidence 0.61 < 0.99",
                           "stop: no member left (3 of 4 agree, confidence 0.65 < 0.99)"};
    }

    void escalationFollowsTheGateThenEdgeOrder()
    {
        QFETCH(bool, gated);
        QFETCH(QStringList, expected);
        QFETCH(QStringList, notes);
        TeamBuilder team;
        addNamedModels(team, {{"ra", true}, {"wb", false}, {"rc", true}, {"rd", true}});
        team.node("meet", "coordinator", json{{"mode", "adaptive"}, {"threshold", 0.99}, {"max_rounds", 5}})
            .edge("in", "meet");
        for (const auto& [id, model] :
             std::vector<std::pair<std::string, std::string>>{{"a", "ra"}, {"b", "wb"}, {"c", "rc"}, {"d", "rd"}})
            team.expert(id, model).member("meet", id);
        team.output("meet");
        const auto r = runWithGate(
            team, kMath, gated ? scripted({{"ra", 0.5}, {"wb", 0.9}, {"rc", 0.1}, {"rd", 0.8}}) : GateScorer{});
        QCOMPARE(q(toString(r.status)), QString("ok"));
        QCOMPARE(q(r.output.answer), QString("783"));
        // The first two together, then one a round, each round starting at the previous one's end.
        const QString e0 = expected[0], e1 = expected[1], e2 = expected[2], e3 = expected[3];
        QCOMPARE(meetingSpans(r, "meet"), (QStringList{
                                              "meet 0..450000 ok",
                                              "round 1 0..150000 ok | " + notes[0],
                                              "  " + e0 + " #1 0..150000 ok", // asked in that order
                                              "  " + e1 + " #1 0..150000 ok",
                                              "round 2 150000..300000 ok | " + notes[1],
                                              "  " + e2 + " #2 150000..300000 ok",
                                              "round 3 300000..450000 ok | " + notes[2],
                                              "  " + e3 + " #3 300000..450000 ok",
                                          }));
        QCOMPARE(q(nodeSpan(r, "meet").note), QString()); // decisions are the rounds'
    }

    void tiesInGateScoreGoToTheEarlierMember()
    {
        TeamBuilder team;
        addNamedModels(team, {{"ra", true}, {"wb", false}, {"rc", true}, {"rd", true}});
        team.node("meet", "coordinator", json{{"mode", "adaptive"}, {"initial", 1}, {"threshold", 0.99}})
            .edge("in", "meet");
        for (const auto& [id, model] :
             std::vector<std::pair<std::string, std::string>>{{"a", "ra"}, {"b", "wb"}, {"c", "rc"}, {"d", "rd"}})
            team.expert(id, model).member("meet", id);
        team.output("meet");
        // c and a tie at .5: a comes first in edge order. Three rounds of one: b, a, c; d is never asked.
        const auto r = runWithGate(team, kMath, scripted({{"ra", 0.5}, {"wb", 0.9}, {"rc", 0.5}, {"rd", 0.1}}));
        QStringList asked;
        for (const auto& line : meetingSpans(r, "meet")) {
            if (line.startsWith("  "))
                asked << line.trimmed().section(' ', 0, 1);
        }
        QCOMPARE(asked, (QStringList{"b #1", "a #2", "c #3"}));
        QCOMPARE(statuses(r, {"a", "b", "c", "d"}), QString("a=ok b=ok c=ok d=skipped"));
        const auto rounds = spansOf(r, "meet", SpanKind::Round);
        QCOMPARE(rounds.size(), size_t(3));
        QCOMPARE(q(rounds[0].note), QString("ask a: 1 of 1 agree, confidence 0.65 < 0.99"));
        QCOMPARE(q(rounds[1].note), QString("ask c: 1 of 2 agree, confidence 0.42 < 0.99"));
        QCOMPARE(q(rounds[2].note), QString("stop: max_rounds 3 reached (2 of 3 agree, confidence 0.61 < 0.99)"));
    }

    void theLocalGatePicksTheSpecialist()
    {
        // The facts specialist comes first in edge order; on a calculation the gate asks the math one.
        const auto r = m_h.runVirtual(panel({"facts-only", "math-only"}, json{{"initial", 1}}), kMath);
        QCOMPARE(statuses(r, memberIds(2)), QString("m1=skipped m2=ok"));
        QCOMPARE(q(r.output.answer), QString("783"));
        const auto lines = meetingSpans(r, "meet");
        QCOMPARE(lines.size(), 3);
        QCOMPARE(lines[2], QString("  m2 #1 0..150000 ok"));
    }

    void initialAboveTheMemberCountAsksEveryoneOnce()
    {
        const auto r = m_h.runVirtual(panel({"right", "right", "wrong"}, json{{"initial", 5}}), kMath);
        const double confidence = r.output.confidence;
        QVERIFY(confidence < 0.7);
        QCOMPARE(meetingSpans(r, "meet"),
                 (QStringList{
                     "meet 0..150000 ok",
                     QStringLiteral("round 1 0..150000 ok | stop: no member left (2 of 3 agree, confidence %1 < 0.70)")
                         .arg(confidence, 0, 'f', 2),
                     "  m1 #1 0..150000 ok",
                     "  m2 #1 0..150000 ok",
                     "  m3 #1 0..150000 ok",
                 }));
        QCOMPARE(q(r.output.answer), QString("783"));
    }

    void maxRoundsEndsIt()
    {
        const auto r = runInEdgeOrder(panel({"right", "wrong", "right", "right"}, json{{"max_rounds", 2}}), kMath);
        const auto lines = meetingSpans(r, "meet");
        QCOMPARE(lines.size(), 6);
        QCOMPARE(lines[0], QString("meet 0..300000 ok"));
        QCOMPARE(lines[1], QString("round 1 0..150000 ok | ask m3: 1 of 2 agree, confidence 0.42 < 0.70"));
        QCOMPARE(lines[2], QString("  m1 #1 0..150000 ok"));
        QCOMPARE(lines[3], QString("  m2 #1 0..150000 ok"));
        QCOMPARE(lines[4], QStringLiteral("round 2 150000..300000 ok | stop: max_rounds 2 reached (2 of 3 agree, "
                                          "confidence 0.54 < 0.70)"));
        QCOMPARE(lines[5], QString("  m3 #2 150000..300000 ok"));
        QCOMPARE(statuses(r, memberIds(4)), QString("m1=ok m2=ok m3=ok m4=skipped"));
    }

    void noMemberLeftEndsIt()
    {
        const auto r = m_h.runVirtual(panel({"right", "wrong"}), kMath);
        QCOMPARE(meetingSpans(r, "meet"),
                 (QStringList{
                     "meet 0..150000 ok",
                     QStringLiteral("round 1 0..150000 ok | stop: no member left (1 of 2 agree, confidence %1 < 0.70)")
                         .arg(r.output.confidence, 0, 'f', 2),
                     "  m1 #1 0..150000 ok",
                     "  m2 #1 0..150000 ok",
                 }));
        QCOMPARE(q(r.output.answer), QString("783")); // the tie goes to the surer answer
    }

    void theBudgetGuardStopsBeforeACallThatWouldBreakIt_data()
    {
        QTest::addColumn<QByteArray>("budget");
        QTest::addColumn<bool>("asksThird");
        // Each call here: 30 prompt tokens in at $1/Mtok, 100 out at $2/Mtok: $0.00023, 130 tokens.
        QTest::newRow("cost: room for two calls, not three") << QByteArray(R"({"max_cost_usd": 0.0006})") << false;
        QTest::newRow("cost: room for three") << QByteArray(R"({"max_cost_usd": 0.01})") << true;
        QTest::newRow("tokens: room for two calls, not three") << QByteArray(R"({"max_tokens": 350})") << false;
    }

    void theBudgetGuardStopsBeforeACallThatWouldBreakIt()
    {
        QFETCH(QByteArray, budget);
        QFETCH(bool, asksThird);
        auto team = panel({"right", "wrong", "right"});
        team.doc()["budget"] = json::parse(budget.toStdString());
        const auto r = runInEdgeOrder(team, kMath);
        // The guard keeps the run within its budget: it is not exhausted.
        QCOMPARE(q(toString(r.status)), QString("ok"));
        const auto rounds = spansOf(r, "meet", SpanKind::Round);
        if (asksThird) {
            QCOMPARE(rounds.size(), size_t(2));
            QCOMPARE(q(rounds[0].note), QString("ask m3: 1 of 2 agree, confidence 0.42 < 0.70"));
            QCOMPARE(statusOf(r, "m3"), QString("ok"));
            return;
        }
        QCOMPARE(rounds.size(), size_t(1));
        const auto a = firstAttempt(r, "m1");
        const auto b = firstAttempt(r, "m2");
        QCOMPARE(a.tokensIn, int64_t(30));
        QCOMPARE(a.tokensOut, int64_t(100));
        QCOMPARE(a.tokensIn, b.tokensIn);
        const int64_t perCall = a.tokensIn + a.tokensOut;
        const double callUsd = (double(a.tokensIn) * 1 + double(a.tokensOut) * 2) / 1e6;
        QCOMPARE(a.costUsd, callUsd);
        QCOMPARE(r.costUsd, 2 * callUsd);
        QString note;
        if (budget.contains("max_cost_usd"))
            note = QStringLiteral("stop: the next call's expected $%1 would pass the budget ($0.00060, $%2 spent)")
                       .arg(callUsd, 0, 'f', 5)
                       .arg(2 * callUsd, 0, 'f', 5);
        else
            note =
                QStringLiteral("stop: the next call's expected %1 tokens would pass the budget (350 tokens, %2 spent)")
                    .arg(perCall)
                    .arg(2 * perCall);
        QCOMPARE(q(rounds[0].note), note);
        QCOMPARE(statuses(r, memberIds(3)), QString("m1=ok m2=ok m3=skipped"));
        QCOMPARE(meetingSpans(r, "meet").first(), QString("meet 0..150000 ok"));
    }

    void aBudgetRunOutMidMeetingAsksNobodyElse()
    {
        // max_wall_ms stops m3 (one second) at 200 ms; the meeting answers from what it has.
        auto team = panel({"right", "wrong", "right-1000", "right"});
        team.doc()["budget"] = json{{"max_wall_ms", 200}};
        const auto r = runInEdgeOrder(team, kMath);
        QCOMPARE(q(toString(r.status)), QString("budget_exhausted"));
        const auto lines = meetingSpans(r, "meet");
        QCOMPARE(lines.size(), 6);
        QCOMPARE(lines[0], QString("meet 0..200000 ok"));
        QCOMPARE(lines[1], QString("round 1 0..150000 ok | ask m3: 1 of 2 agree, confidence 0.42 < 0.70"));
        QCOMPARE(lines[4], QString("round 2 150000..200000 ok | stop: budget exhausted: max_wall_ms 200 reached"));
        QCOMPARE(lines[5], QString("  m3 #2 150000..200000 budget_exhausted"));
        QCOMPARE(statuses(r, memberIds(4)), QString("m1=ok m2=ok m3=budget_exhausted m4=skipped"));
        QCOMPARE(q(r.output.answer), QString("783"));
    }

    void aCancelledMeetingEndsItsRoundAndItsMembers()
    {
        // Round 2 asks m3 (one second) at 150 ms; Stop comes at 200 ms.
        const auto r = runInEdgeOrder(panel({"right", "wrong", "right-1000", "right"}), kMath, 200.0);
        QCOMPARE(q(toString(r.status)), QString("cancelled"));
        const auto lines = meetingSpans(r, "meet");
        QCOMPARE(lines.size(), 6);
        QCOMPARE(lines[0], QString("meet 0..200000 cancelled"));
        QCOMPARE(lines[1], QString("round 1 0..150000 ok | ask m3: 1 of 2 agree, confidence 0.42 < 0.70"));
        QCOMPARE(lines[2], QString("  m1 #1 0..150000 ok"));
        QCOMPARE(lines[3], QString("  m2 #1 0..150000 ok"));
        // Nobody is asked after the Stop: the round it cut short ends cancelled, with no decision.
        QCOMPARE(lines[4], QString("round 2 150000..200000 cancelled | "));
        QCOMPARE(lines[5], QString("  m3 #2 150000..200000 cancelled"));
        QCOMPARE(statuses(r, memberIds(4)), QString("m1=ok m2=ok m3=cancelled m4=skipped"));
        QCOMPARE(statusOf(r, "out"), QString("cancelled"));
        QCOMPARE(r.wallUs, int64_t(200000));
    }

    void aTimedOutMemberCountsAsAskedAndTheMeetingGoesOn()
    {
        TeamBuilder team;
        // A failed answer does not dilute the majority's confidence, so the threshold is out of reach here.
        team.node("meet", "coordinator", json{{"mode", "adaptive"}, {"consensus", 0.6}, {"threshold", 0.99}})
            .edge("in", "meet");
        team.expert("m1", "right", json{{"timeout_ms", 100}}).member("meet", "m1");
        team.expert("m2", "right").member("meet", "m2");
        team.expert("m3", "right").member("meet", "m3");
        team.output("meet");
        const auto r = m_h.runVirtual(team, kMath);
        // Round 1: m1 times out at 100 ms, m2 answers at 150: 1 of 2 agree. Round 2 asks m3: 2 of 3.
        const auto lines = meetingSpans(r, "meet");
        QCOMPARE(lines.size(), 6);
        QCOMPARE(lines[0], QString("meet 0..300000 ok"));
        QCOMPARE(lines[1], QString("round 1 0..150000 ok | ask m3: 1 of 2 agree, confidence 0.77 < 0.99"));
        QCOMPARE(lines[2], QString("  m1 #1 0..100000 timeout"));
        QCOMPARE(lines[3], QString("  m2 #1 0..150000 ok"));
        QCOMPARE(lines[4], QString("round 2 150000..300000 ok | stop: 2 of 3 agree (consensus 0.60)"));
        QCOMPARE(lines[5], QString("  m3 #2 150000..300000 ok"));
        QCOMPARE(q(toString(r.status)), QString("partial"));
        QCOMPARE(q(r.output.answer), QString("783"));
    }
};

QTEST_GUILESS_MAIN(TestAdaptiveMeeting)
#include "tst_adaptivemeeting.moc"
