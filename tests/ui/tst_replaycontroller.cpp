// ReplayController: seeking, speed limits and playback emit positions and
// the state maps of ReplayStates (whose states tst_replaystates checks).
#include <QtTest>

#include "support/KnownRuns.h"

#include "timeline/ReplayController.h"

#include <QTimer>

using namespace conclave;
using conclave::ui::ReplayController;
using conclave::ui::TimelineModel;

class TestReplayController : public QObject {
    Q_OBJECT

private slots:
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
        QVERIFY(first == ReplayStates(known_runs::review()).statesAt(4050));
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
        QSignalSpy positions(&replay, &ReplayController::positionChanged);
        replay.play();
        QVERIFY(positions.wait());  // the first tick: the replay has moved on
        QVERIFY(replay.position() > 0);
        replay.pause();
        QVERIFY(!replay.isPlaying());
        const auto at = replay.position();
        positions.clear();
        // Two intervals of a timer like the controller's, started after the
        // pause: a tick of the controller's still due would have come first.
        QTimer reference;
        reference.setInterval(ReplayController::kTickMs);
        reference.setTimerType(Qt::PreciseTimer);
        QSignalSpy referenceTicks(&reference, &QTimer::timeout);
        reference.start();
        QTRY_VERIFY(referenceTicks.size() >= 2);
        QCOMPARE(positions.size(), 0);
        QCOMPARE(replay.position(), at);
    }
};

QTEST_MAIN(TestReplayController)
#include "tst_replaycontroller.moc"
