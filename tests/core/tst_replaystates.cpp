// ReplayStates: each node's state at an instant of a known run is exactly
// what its spans imply: running inside a span, then the status of the span
// that ended last, queued before the first; nodes without spans take their
// recorded final status.
#include <QtTest>

#include "support/KnownRuns.h"
#include "support/QtStrings.h"

#include "conclave/analysis/ReplayStates.h"

using namespace conclave;

namespace {

// "node=state" for every node of the known team, in team order.
QString describe(const NodeStates& states)
{
    QStringList out;
    for (const char* node : {"in", "a", "b", "spare", "panel", "m1", "join", "out"})
        out << QString("%1=%2").arg(node, q(toString(states.at(NodeId(node)))));
    return out.join(' ');
}

} // namespace

class TestReplayStates : public QObject {
    Q_OBJECT

private slots:
    void statesAtAnInstant_data()
    {
        QTest::addColumn<qint64>("at");
        QTest::addColumn<QString>("states");
        QTest::newRow("start")
            << qint64(0) << "in=running a=queued b=queued spare=queued panel=queued m1=queued join=queued out=queued";
        QTest::newRow("input done, fan-out")
            << qint64(100) << "in=ok a=running b=running spare=skipped panel=running m1=running join=queued out=queued";
        QTest::newRow("straggler cancelled")
            << qint64(3000)
            << "in=ok a=running b=cancelled spare=skipped panel=running m1=running join=queued out=queued";
        QTest::newRow("member between rounds")
            << qint64(4050) << "in=ok a=running b=cancelled spare=skipped panel=running m1=ok join=queued out=queued";
        QTest::newRow("second round")
            << qint64(5100) << "in=ok a=ok b=cancelled spare=skipped panel=running m1=running join=queued out=queued";
        QTest::newRow("join") << qint64(9150)
                              << "in=ok a=ok b=cancelled spare=skipped panel=ok m1=ok join=running out=queued";
        QTest::newRow("end") << qint64(9300) << "in=ok a=ok b=cancelled spare=skipped panel=ok m1=ok join=ok out=ok";
    }

    void statesAtAnInstant()
    {
        QFETCH(qint64, at);
        QFETCH(QString, states);
        const ReplayStates replay(known_runs::review());
        QCOMPARE(describe(replay.statesAt(at)), states);
        QCOMPARE(int(replay.statesAt(at).size()), 8);
    }

    void oneNode_data()
    {
        QTest::addColumn<QString>("change");
        QTest::addColumn<QString>("node");
        QTest::addColumn<qint64>("at");
        QTest::addColumn<QString>("state");
        QTest::newRow("a failed span: running to its end") << "a failed"
                                                           << "a" << qint64(5099) << "running";
        QTest::newRow("a failed span: failed after") << "a failed"
                                                     << "a" << qint64(5100) << "failed";
        QTest::newRow("a span that never ended runs on") << "out open"
                                                         << "out" << qint64(1'000'000) << "running";
        QTest::newRow("no recorded finish: queued") << "spare unfinished"
                                                    << "spare" << qint64(9299) << "queued";
        QTest::newRow("no recorded finish: from the end") << "spare unfinished"
                                                          << "spare" << qint64(9300) << "skipped";
        QTest::newRow("a node the run does not name") << ""
                                                      << "nobody" << qint64(100) << "queued";
        QTest::newRow("no team: nodes from the spans") << "no team"
                                                       << "m1" << qint64(100) << "running";
    }

    void oneNode()
    {
        QFETCH(QString, change);
        QFETCH(QString, node);
        QFETCH(qint64, at);
        QFETCH(QString, state);
        auto run = known_runs::review();
        if (change == "a failed")
            run.spans[1].status = Status::Failed; // a's node span
        if (change == "out open")
            run.spans[14].endUs = -1;
        if (change == "spare unfinished")
            run.nodes[0].finishedUs = -1;
        if (change == "no team")
            run.teamJson = "not a team";
        const ReplayStates replay(run);
        QCOMPARE(q(toString(replay.stateAt(NodeId(node.toStdString()), at))), state);
    }

    void withoutATeamOnlyTheSpansNodes()
    {
        auto run = known_runs::review();
        run.teamJson = "not a team";
        const auto states = ReplayStates(run).statesAt(9300);
        QCOMPARE(int(states.size()), 7); // spare has no span
        QVERIFY(!states.contains(NodeId("spare")));
        QVERIFY(ReplayStates().statesAt(0).empty());
    }
};

QTEST_GUILESS_MAIN(TestReplayStates)
#include "tst_replaystates.moc"
