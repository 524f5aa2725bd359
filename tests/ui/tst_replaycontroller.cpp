// ReplayController: the states at an instant are exactly what the spans
// imply; seeking, speed limits and playback emit positions and state maps.
#include <QtTest>

#include "support/KnownRuns.h"
#include "support/QtStrings.h"

#include "timeline/ReplayController.h"
#include "timeline/StatusPalette.h"

using namespace conclave;
using conclave::ui::NodeStates;
using conclave::ui::ReplayController;
using conclave::ui::StatusPalette;
using conclave::ui::TimelineModel;

namespace {

// "node=state" in lane order, states as the replay names them.
QString describe(const TimelineModel& m, const NodeStates& states)
{
    QStringList out;
    for (int lane = 0; lane < m.laneCount(); ++lane)
        out << q(m.lane(lane).node.str()) + "=" + StatusPalette::label(states.at(m.lane(lane).node));
    return out.join(' ');
}

} // namespace

class TestReplayController : public QObject {
    Q_OBJECT

private slots:
    void statesAtAnInstant_data()
    {
        QTest::addColumn<qint64>("at");
        QTest::addColumn<QString>("states");
        QTest::newRow("start") << qint64(0)
            << "in=running a=queued b=queued spare=queued panel=queued m1=queued join=queued out=queued";
        QTest::newRow("input done, fan-out") << qint64(100)
            << "in=done a=running b=running spare=skipped panel=running m1=running join=queued out=queued";
        QTest::newRow("straggler cancelled") << qint64(3000)
            << "in=done a=running b=cancelled spare=skipped panel=running m1=running join=queued out=queued";
        QTest::newRow("member between rounds") << qint64(4050)
            << "in=done a=running b=cancelled spare=skipped panel=running m1=done join=queued out=queued";
        QTest::newRow("second round") << qint64(5100)
            << "in=done a=done b=cancelled spare=skipped panel=running m1=running join=queued out=queued";
        QTest::newRow("join") << qint64(9150)
            << "in=done a=done b=cancelled spare=skipped panel=done m1=done join=running out=queued";
        QTest::newRow("end") << qint64(9300)
            << "in=done a=done b=cancelled spare=skipped panel=done m1=done join=done out=done";
    }

    void statesAtAnInstant()
    {
        QFETCH(qint64, at);
        QFETCH(QString, states);
        auto model = std::make_shared<const TimelineModel>(known_runs::review());
        ReplayController replay;
        replay.setModel(model);
        QCOMPARE(describe(*model, replay.statesAt(at)), states);
    }

    void aFailedSpanLeavesTheNodeFailed()
    {
        auto run = known_runs::review();
        run.spans[1].status = Status::Failed;  // a's node span
        auto model = std::make_shared<const TimelineModel>(std::move(run));
        ReplayController replay;
        replay.setModel(model);
        QVERIFY(replay.stateAt(1, 5099) == Status::Running);
        QVERIFY(replay.stateAt(1, 5100) == Status::Failed);
    }

    void seekEmitsThePositionAndTheStates()
    {
        auto model = std::make_shared<const TimelineModel>(known_runs::review());
        ReplayController replay;
        replay.setModel(model);
        QSignalSpy positions(&replay, &ReplayController::positionChanged);
        QSignalSpy states(&replay, &ReplayController::statesChanged);
        replay.seek(4050);
        replay.seek(-10);
        replay.seek(1'000'000);
        QCOMPARE(positions.size(), 3);
        QCOMPARE(positions[0][0].toLongLong(), qint64(4050));
        QCOMPARE(positions[1][0].toLongLong(), qint64(0));
        QCOMPARE(positions[2][0].toLongLong(), qint64(9300));
        QCOMPARE(states.size(), 3);
        const auto first = states[0][1].value<NodeStates>();
        QVERIFY(first.at(NodeId("m1")) == Status::Ok);
        QVERIFY(first.at(NodeId("b")) == Status::Cancelled);
        QCOMPARE(replay.position(), int64_t(9300));
    }

    void speedIsClamped()
    {
        ReplayController replay;
        QSignalSpy speeds(&replay, &ReplayController::speedChanged);
        replay.setSpeed(100);
        QCOMPARE(replay.speed(), 8.0);
        replay.setSpeed(0.01);
        QCOMPARE(replay.speed(), 0.25);
        replay.setSpeed(0.25);
        QCOMPARE(speeds.size(), 2);
    }

    void playsToTheEndAtTheRunsTiming()
    {
        // 9.3 ms of run at 0.25x takes ~37 ms of wall time, in several ticks.
        auto model = std::make_shared<const TimelineModel>(known_runs::review());
        ReplayController replay;
        replay.setModel(model);
        replay.setSpeed(0.25);
        QSignalSpy positions(&replay, &ReplayController::positionChanged);
        QSignalSpy finished(&replay, &ReplayController::finished);
        QSignalSpy playing(&replay, &ReplayController::playingChanged);
        QElapsedTimer clock;
        clock.start();
        replay.play();
        QVERIFY(replay.isPlaying());
        QVERIFY(finished.wait(5000));
        QVERIFY(clock.elapsed() >= 30);
        QVERIFY(!replay.isPlaying());
        QCOMPARE(replay.position(), int64_t(9300));
        QCOMPARE(positions.last()[0].toLongLong(), qint64(9300));
        for (int i = 1; i < positions.size(); ++i)
            QVERIFY(positions[i][0].toLongLong() >= positions[i - 1][0].toLongLong());
        QCOMPARE(playing.size(), 2);
    }

    void pauseStopsTheClock()
    {
        auto model = std::make_shared<const TimelineModel>(known_runs::review("slow", 1000));
        ReplayController replay;
        replay.setModel(model);
        replay.play();
        QTest::qWait(100);
        replay.pause();
        const auto at = replay.position();
        QVERIFY(at > 0);
        QTest::qWait(100);
        QCOMPARE(replay.position(), at);
    }
};

QTEST_MAIN(TestReplayController)
#include "tst_replaycontroller.moc"
