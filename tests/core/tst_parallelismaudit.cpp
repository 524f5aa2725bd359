// ParallelismAudit: only pairs that could have overlapped and did not, with
// why. Hand-made spans for each rule (a full backend, a retry that held it,
// a rate limit, no limit, a dependency, a meeting that speaks in turn
// (round_robin, cascade, adaptive), a parallel meeting, too short a common
// wait, the input and the output), then
// every example and 200 generated teams on the simulated clock, where nothing
// limits the engine: the exact list is empty.
#include <QtTest>

#include "support/EngineTestKit.h"
#include "support/TeamGenerator.h"

#include "conclave/analysis/ParallelismAudit.h"

#include <rapidcheck.h>

using namespace enginetest;
using teamgen::GeneratedCase;

namespace {

// "a, b (why)" per flagged pair.
QStringList listed(const std::vector<SerialisedBranches>& found)
{
    QStringList out;
    for (const auto& s : found) {
        QStringList nodes;
        for (const auto& n : s.nodes)
            nodes << q(n.str());
        out << nodes.join(", ") + " (" + q(s.why) + ")";
    }
    return out;
}

Span span(SpanId id, SpanId parent, const std::string& node, SpanKind kind, int64_t start, int64_t end, int attempt = 0,
          int round = 0)
{
    Span s;
    s.id = id;
    s.parent = parent;
    s.node = NodeId(node);
    s.kind = kind;
    s.startUs = start;
    s.endUs = end;
    s.status = Status::Ok;
    s.attempt = attempt;
    s.round = round;
    return s;
}

// in -> a, b -> join -> out on backend "oa" (openai, `backend` fields added); b starts `bStart` us in.
Team fanOut(const json& backend)
{
    TeamBuilder b;
    json oa = backend;
    oa["kind"] = "openai";
    oa["base_url"] = "http://127.0.0.1:9/v1";
    b.doc()["backends"]["oa"] = oa;
    b.doc()["defaults"]["backend"] = "oa";
    b.expert("a", "m").expert("b", "m").node("join", "aggregator", {{"strategy", "concat"}});
    b.edge("in", "a").edge("in", "b").edge("a", "join").edge("b", "join").output("join");
    std::string problems;
    auto team = b.build(problems);
    if (!team)
        qFatal("%s", problems.c_str());
    return *team;
}

// a ran 10..1010 us, b 1010..2010 (or from bStart), each with one attempt (a with `aAttempts`).
std::vector<Span> ranInTurn(int64_t bStart = 1010, int aAttempts = 1)
{
    std::vector<Span> s{span(1, 0, "in", SpanKind::Node, 0, 5), span(2, 0, "a", SpanKind::Node, 10, 1010)};
    for (int k = 1; k <= aAttempts; ++k)
        s.push_back(span(SpanId(2 + k), 2, "a", SpanKind::Attempt, 10 + (k - 1) * 1000 / aAttempts,
                         10 + k * 1000 / aAttempts, k));
    const SpanId b = SpanId(s.size() + 1);
    s.push_back(span(b, 0, "b", SpanKind::Node, bStart, bStart + 1000));
    s.push_back(span(b + 1, b, "b", SpanKind::Attempt, bStart, bStart + 1000, 1));
    s.push_back(span(b + 2, 0, "join", SpanKind::Node, bStart + 1000, bStart + 1005));
    s.push_back(span(b + 3, 0, "out", SpanKind::Node, bStart + 1005, bStart + 1010));
    return s;
}

} // namespace

class TestParallelismAudit : public QObject {
    Q_OBJECT

    EngineHarness m_h;

private slots:
    void initTestCase() { QVERIFY(m_h.init()); }

    void aFullBackendHeldTheLaterOneBack()
    {
        const Team team = fanOut({{"max_concurrency", 1}});
        QCOMPARE(listed(ParallelismAudit::find(team, ranInTurn(), 2020)),
                 QStringList{R"(a, b (backend "oa" allows 1 call at a time))"});
        QCOMPARE(listed(ParallelismAudit::find(team, ranInTurn(1010, 2), 2020)),
                 QStringList{R"(a, b (backend "oa" allows 1 call at a time; a's retry held it))"});
    }

    void otherLimitsAndNoLimit()
    {
        // Eight calls at a time by default: one in flight does not fill it.
        QCOMPARE(listed(ParallelismAudit::find(fanOut(json::object()), ranInTurn(), 2020)),
                 QStringList{"a, b (no backend limit explains it (the engine's workers may have been busy))"});
        QCOMPARE(listed(ParallelismAudit::find(fanOut({{"requests_per_minute", 60}}), ranInTurn(), 2020)),
                 QStringList{R"(a, b (backend "oa" allows 60 requests a minute))"});
    }

    void overlapOrTooShortAWaitIsNoAlarm()
    {
        const Team team = fanOut({{"max_concurrency", 1}});
        // b from 900: it overlapped a.
        QVERIFY(ParallelismAudit::find(team, ranInTurn(900), 2020).empty());
        // Ready together for 1005 - 10 ... a's end: at least 1 ms; with a ready only 0.5 ms before its end, none.
        auto spans = ranInTurn();
        spans[0].endUs = 600; // the input settles at 600: both ready from 600 to a's end at 1010, 410 us
        spans[1].startUs = 600;
        QVERIFY(ParallelismAudit::find(team, spans, 2020).empty());
    }

    void dependentNodesAreNoAlarm()
    {
        TeamBuilder b;
        b.expert("a", "right").expert("b", "right").edge("in", "a").edge("a", "b").output("b");
        std::string problems;
        const auto team = b.build(problems);
        QVERIFY2(team, problems.c_str());
        QVERIFY(ParallelismAudit::find(*team, ranInTurn(), 2020).empty());
    }

    void aMeetingThatSpeaksInTurnIsNoAlarm_data()
    {
        QTest::addColumn<QString>("mode");
        QTest::addColumn<QStringList>("expected");
        QTest::newRow("round_robin") << "round_robin" << QStringList{};
        QTest::newRow("cascade") << "cascade" << QStringList{};
        // Its later rounds wait for the earlier ones by design: its members are never flagged.
        QTest::newRow("adaptive") << "adaptive" << QStringList{};
        QTest::newRow("debate") << "debate"
                                << QStringList{
                                       "a, b (no backend limit explains it (the engine's workers may have been busy))"};
    }

    void aMeetingThatSpeaksInTurnIsNoAlarm()
    {
        QFETCH(QString, mode);
        QFETCH(QStringList, expected);
        TeamBuilder b;
        b.node("meet", "coordinator", {{"mode", mode.toStdString()}, {"max_rounds", 1}});
        b.expert("a", "right").expert("b", "right").edge("in", "meet").member("meet", "a").member("meet", "b");
        b.output("meet");
        std::string problems;
        const auto team = b.build(problems);
        QVERIFY2(team, problems.c_str());
        // The round starts at 10 and asks both; a speaks, then b.
        std::vector<Span> spans{span(1, 0, "in", SpanKind::Node, 0, 5),
                                span(2, 0, "meet", SpanKind::Node, 10, 2020),
                                span(3, 2, "meet", SpanKind::Round, 10, 2015, 0, 1),
                                span(4, 3, "a", SpanKind::Node, 10, 1010, 0, 1),
                                span(5, 3, "b", SpanKind::Node, 1010, 2010, 0, 1),
                                span(6, 0, "out", SpanKind::Node, 2020, 2025)};
        QCOMPARE(listed(ParallelismAudit::find(*team, spans, 2025)), expected);
    }

    void everyExampleRunsWithoutAnAlarm_data()
    {
        QTest::addColumn<QString>("file");
        for (const char* name : {"triage", "keyword-vote", "mixture-of-agents", "cascade", "debate", "review-board",
                                 "adaptive-panel", "mosaic", "fast-path"})
            QTest::newRow(name) << QString::fromLatin1(name) + ".team.json";
    }

    void everyExampleRunsWithoutAnAlarm()
    {
        QFETCH(QString, file);
        const auto team = loadExample(file, 1.0);
        QVERIFY(team);
        std::map<std::string, int> perDomain;
        for (const auto& task : m_h.engine().resources().tasks->tasks()) {
            if (perDomain[task.domain]++ >= 4)
                continue;
            for (uint64_t seed : {1, 2}) {
                const auto r = m_h.runVirtual(*team, task.prompt, seed);
                QCOMPARE(listed(ParallelismAudit::find(*team, r.spans, r.wallUs)), QStringList{});
            }
        }
    }

    void generatedTeamsRunWithoutAnAlarm()
    {
        rc::Random random(20261202);
        int ran = 0;
        for (int drawn = 0; ran < 200 && drawn < 1000; ++drawn) {
            const GeneratedCase c = teamgen::generatedCase()(random.split(), 60).value();
            if (c.cancelAtMs)
                continue; // a cancelled run stops what would have overlapped
            auto loaded = teamFromJson(c.team);
            QVERIFY(loaded.team);
            const auto r = m_h.runVirtual(*loaded.team, c.input, c.seed);
            std::ostringstream shown;
            teamgen::showValue(c, shown);
            QVERIFY2(ParallelismAudit::find(*loaded.team, r.spans, r.wallUs).empty(),
                     (listed(ParallelismAudit::find(*loaded.team, r.spans, r.wallUs)).join("; ").toStdString() + "\n" +
                      shown.str())
                         .c_str());
            ++ran;
        }
        QCOMPARE(ran, 200);
    }
};

QTEST_GUILESS_MAIN(TestParallelismAudit)
#include "tst_parallelismaudit.moc"
