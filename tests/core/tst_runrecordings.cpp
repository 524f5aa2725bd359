// Single-run mode (RunRecordings, Engine::prepareReplay): a stored run's own
// calls, matched by node, round, subtask and attempt, replay the run exactly;
// a team with a node less replays what the others did.
#include <QtTest>

#include "support/EngineTestKit.h"

#include "conclave/io/TeamFile.h"
#include "conclave/replay/ReplayNote.h"
#include "conclave/replay/RunRecordings.h"
#include "conclave/store/RunQueries.h"

#include <QTemporaryDir>

using namespace conclave;
using namespace enginetest;

namespace {

Team voteTeam(bool withFacts)
{
    json doc{{"conclave", 1}, {"name", "vote"}, {"backends", {{"local", {{"kind", "local-moe"}, {"seed", 42}}}}}};
    doc["defaults"] = {{"backend", "local"}, {"retries", 2}};
    doc["nodes"] = json::array({{{"id", "in"}, {"kind", "input"}},
                                {{"id", "e_math"}, {"kind", "expert"}, {"model", "local/math-13b"}},
                                {{"id", "e_gen"}, {"kind", "expert"}, {"model", "local/generalist-7b"}},
                                {{"id", "vote"}, {"kind", "aggregator"}, {"strategy", "majority"}},
                                {{"id", "out"}, {"kind", "output"}}});
    doc["edges"] = json::array({{{"from", "in"}, {"to", "e_math"}},
                                {{"from", "in"}, {"to", "e_gen"}},
                                {{"from", "e_math"}, {"to", "vote"}},
                                {{"from", "e_gen"}, {"to", "vote"}},
                                {{"from", "vote"}, {"to", "out"}}});
    if (withFacts) {
        doc["nodes"].push_back({{"id", "e_facts"}, {"kind", "expert"}, {"model", "local/facts-7b"}});
        doc["edges"].push_back({{"from", "in"}, {"to", "e_facts"}});
        doc["edges"].push_back({{"from", "e_facts"}, {"to", "vote"}});
    }
    return *teamFromJson(doc).team;
}

std::vector<Span> attemptsOf(const std::vector<Span>& spans, const std::string& node = {})
{
    std::vector<Span> out;
    for (const auto& s : spans) {
        if (s.kind == SpanKind::Attempt && (node.empty() || s.node == NodeId(node)))
            out.push_back(s);
    }
    return out;
}

} // namespace

class TestRunRecordings : public QObject {
    Q_OBJECT

    EngineHarness m_h;
    QTemporaryDir m_dir;
    std::string m_db;

    RunId record(const Team& team, const std::string& input, RunResult& result)
    {
        return m_h.record(m_db, team, input, result);
    }

    RunResult replay(const Team& team, const RunId& id, const std::string& input)
    {
        const auto prepared = m_h.engine().prepareReplay(team, id.str(), m_db);
        if (!prepared.team) {
            QTest::qFail(prepared.error.c_str(), __FILE__, __LINE__);
            return {};
        }
        auto started =
            m_h.engine().start(*prepared.team, input, Engine::StartOptions{5, {}, ClockRequest::Virtual, {}, {}});
        if (!started.run) {
            QTest::qFail(started.error.c_str(), __FILE__, __LINE__);
            return {};
        }
        return started.run->wait();
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_h.init());
        m_db = m_dir.filePath("runs.sqlite").toStdString();
    }

    void aStoredAttemptsSaltIsItsNodeAndItsDrawsSuffix_data()
    {
        QTest::addColumn<QString>("node");
        QTest::addColumn<QString>("draw");
        QTest::addColumn<QString>("salt");
        QTest::newRow("a node's call") << "e_math"
                                       << "expert:0"
                                       << "e_math";
        QTest::newRow("a member's turn") << "m1"
                                         << "expert:1#2#3"
                                         << "m1#2#3";
        QTest::newRow("a plan") << "c"
                                << "coordinator:0#plan#1"
                                << "c#plan#1";
    }
    void aStoredAttemptsSaltIsItsNodeAndItsDrawsSuffix()
    {
        QFETCH(QString, node);
        QFETCH(QString, draw);
        QFETCH(QString, salt);
        Span span;
        span.node = NodeId(node.toStdString());
        span.draw = draw.toStdString();
        QCOMPARE(q(RunRecordings::saltOf(span)), salt);
    }

    // (h) The run's own team, replayed from the run: the same answers and the same timings.
    void aRunReplaysItselfExactly_data()
    {
        QTest::addColumn<QString>("team");
        QTest::addColumn<QString>("input");
        QTest::newRow("vote") << "" << kFrance;
        QTest::newRow("debate") << "debate" << kMath;
        QTest::newRow("mosaic") << "mosaic" << kCompound;
    }
    void aRunReplaysItselfExactly()
    {
        QFETCH(QString, team);
        QFETCH(QString, input);
        const Team chosen =
            team.isEmpty()
                ? voteTeam(true)
                : *loadTeamFile(std::string(CONCLAVE_RESOURCES) + "/examples/" + team.toStdString() + ".team.json")
                       .team;
        RunResult original;
        const auto id = record(chosen, input.toStdString(), original);
        QVERIFY(!id.empty());
        const auto copy = replay(chosen, id, input.toStdString());
        QCOMPARE(q(copy.output.answer), q(original.output.answer));
        QVERIFY(copy.status == original.status);
        QCOMPARE(copy.wallUs, original.wallUs);
        QCOMPARE(copy.costUsd, original.costUsd);
        QCOMPARE(copy.calls, original.calls);
        const auto was = attemptsOf(original.spans);
        const auto is = attemptsOf(copy.spans);
        QCOMPARE(is.size(), was.size());
        QVERIFY(!is.empty());
        for (size_t k = 0; k < is.size(); ++k) {
            QCOMPARE(q(is[k].node.str()), q(was[k].node.str()));
            QCOMPARE(is[k].startUs, was[k].startUs);
            QCOMPARE(is[k].endUs, was[k].endUs);
            QCOMPARE(is[k].ttftUs, was[k].ttftUs);
            QVERIFY(is[k].status == was[k].status);
            QCOMPARE(q(is[k].note), q(ReplayNote::make(id, was[k].id)));
        }
    }

    // The what-if: a node less, and the others answer as they did.
    void aTeamWithANodeLessReplaysTheOthers()
    {
        RunResult original;
        const auto id = record(voteTeam(true), kFrance, original);
        QVERIFY(!id.empty());
        const auto copy = replay(voteTeam(false), id, kFrance);
        for (const auto* node : {"e_math", "e_gen"}) {
            const auto was = attemptsOf(original.spans, node);
            const auto is = attemptsOf(copy.spans, node);
            QCOMPARE(is.size(), was.size());
            for (size_t k = 0; k < is.size(); ++k) {
                QCOMPARE(is[k].endUs - is[k].startUs, was[k].endUs - was[k].startUs);
                QCOMPARE(q(is[k].note), q(ReplayNote::make(id, was[k].id)));
            }
            QCOMPARE(q(resultOf(copy, node).answer), q(resultOf(original, node).answer));
        }
    }

    void anUnknownRunIsSaidSo()
    {
        RunResult original;
        QVERIFY(!record(voteTeam(false), kFrance, original).empty());
        const auto prepared = m_h.engine().prepareReplay(voteTeam(false), "nope", m_db);
        QVERIFY(!prepared.team);
        QCOMPARE(q(prepared.error), q(m_db + ": no run \"nope\""));
    }
};

QTEST_GUILESS_MAIN(TestRunRecordings)
#include "tst_runrecordings.moc"
