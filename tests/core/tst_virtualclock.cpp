// VirtualClock: simulated time that moves only when the run has nothing left to do.
#include <QtTest>

#include "conclave/engine/ThreadPool.h"
#include "conclave/engine/VirtualClock.h"
#include "support/OrderLog.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <vector>

using namespace conclave;
using namespace std::chrono_literals;

namespace {

// What the callbacks saw, in the order they ran.
using Trace = testsupport::OrderLog;

std::string at(const std::string& name, const VirtualClock& clock)
{
    return name + "@" + std::to_string(clock.nowUs());
}

} // namespace

class TestVirtualClock : public QObject {
    Q_OBJECT

private slots:
    void timeJumpsToEachTimerInTurn()
    {
        ThreadPool pool(2);
        auto clock = std::make_shared<VirtualClock>(pool);
        Trace trace;
        {
            RunClock::Hold hold(*clock); // scheduled together, before time may move
            clock->schedule(300, [&] { trace.add(at("c", *clock)); });
            clock->schedule(100, [&] { trace.add(at("a", *clock)); });
            clock->schedule(200, [&] { trace.add(at("b", *clock)); });
        }
        QVERIFY(trace.waitFor(3));
        QCOMPARE(trace.joined(), QString("a@100 b@200 c@300"));
        QCOMPARE(clock->nowUs(), int64_t(300));
    }

    void oneInstantFiresInScheduleOrderAndItsWorkComesAfter()
    {
        ThreadPool pool(2);
        auto clock = std::make_shared<VirtualClock>(pool);
        Trace trace;
        {
            RunClock::Hold hold(*clock);
            clock->schedule(100, [&] {
                trace.add(at("first", *clock));
                clock->post([&] { trace.add(at("first's-work", *clock)); });
                clock->schedule(100, [&] { trace.add(at("first's-timer-now", *clock)); });
                clock->schedule(150, [&] { trace.add(at("later", *clock)); });
            });
            clock->schedule(100, [&] { trace.add(at("second", *clock)); });
            clock->schedule(100, [&] { trace.add(at("third", *clock)); });
        }
        QVERIFY(trace.waitFor(6));
        QCOMPARE(trace.joined(),
                 QString("first@100 second@100 third@100 first's-work@100 first's-timer-now@100 later@150"));
    }

    void timeStandsStillWhileThereIsWork()
    {
        ThreadPool pool(2);
        auto clock = std::make_shared<VirtualClock>(pool);
        Trace trace;
        std::atomic<int> left{5000};
        std::function<void()> step = [&] {
            if (--left > 0) {
                clock->post(step);
                return;
            }
            trace.add(at("work done", *clock));
        };
        {
            RunClock::Hold hold(*clock);
            clock->schedule(10, [&] { trace.add(at("timer", *clock)); });
            clock->post(step);
        }
        QVERIFY(trace.waitFor(2));
        // Thousands of tasks, more than a slice, and no time passed: then the timer.
        QCOMPARE(trace.joined(), QString("work done@0 timer@10"));
    }

    void aCancelledTimerNeverFires()
    {
        ThreadPool pool(1);
        auto clock = std::make_shared<VirtualClock>(pool);
        Trace trace;
        TimerId late = 0;
        {
            RunClock::Hold hold(*clock);
            late = clock->schedule(200, [&] { trace.add("cancelled timer ran"); });
            const TimerId early = clock->schedule(100, [&] {
                trace.add(at("early", *clock));
                trace.add(clock->cancel(late) ? "cancelled late" : "late was gone");
            });
            clock->schedule(300, [&] { trace.add(at("last", *clock)); });
            QCOMPARE(clock->pendingTimers(), size_t(3));
            QVERIFY(early != late);
        }
        QVERIFY(trace.waitFor(3));
        QCOMPARE(trace.joined(), QString("early@100 cancelled late last@300"));
        QVERIFY(!clock->cancel(late)); // already cancelled
        QCOMPARE(clock->pendingTimers(), size_t(0));
    }

    void aDeadlineInThePastRunsNowNotThen()
    {
        ThreadPool pool(1);
        auto clock = std::make_shared<VirtualClock>(pool);
        Trace trace;
        clock->schedule(500, [&] {
            trace.add(at("a", *clock));
            clock->schedule(20, [&] { trace.add(at("in the past", *clock)); });
        });
        QVERIFY(trace.waitFor(2));
        QCOMPARE(trace.joined(), QString("a@500 in the past@500"));
    }

    void aHoldKeepsTimeUntilReleased()
    {
        ThreadPool pool(2);
        auto clock = std::make_shared<VirtualClock>(pool);
        Trace trace;
        std::optional<RunClock::Hold> hold(std::in_place, *clock);
        clock->schedule(50, [&] { trace.add(at("timer", *clock)); });
        clock->post([&] { trace.add(at("work", *clock)); }); // work runs during a hold; time does not move
        QVERIFY(trace.waitFor(1));
        QVERIFY(!trace.waitFor(2, 100ms));
        QCOMPARE(clock->nowUs(), int64_t(0));
        hold.reset();
        QVERIFY(trace.waitFor(2));
        QCOMPARE(trace.joined(), QString("work@0 timer@50"));
    }

    void theStallHandlerHearsWhenNothingIsLeft()
    {
        ThreadPool pool(2);
        auto clock = std::make_shared<VirtualClock>(pool);
        Trace trace;
        clock->setStallHandler([&] { trace.add(at("stalled", *clock)); });
        {
            RunClock::Hold hold(*clock);
            clock->schedule(70, [&] { trace.add(at("timer", *clock)); });
        }
        QVERIFY(trace.waitFor(2));
        QCOMPARE(trace.joined(), QString("timer@70 stalled@70"));
        clock->setStallHandler({});
    }

    void manyClocksShareOnePoolEachInItsOwnTime()
    {
        ThreadPool pool(2);
        constexpr int kClocks = 64;
        constexpr int kSteps = 200;
        std::vector<std::shared_ptr<VirtualClock>> clocks;
        std::vector<std::unique_ptr<Trace>> traces;
        std::vector<std::vector<int64_t>> seen(kClocks);
        std::vector<std::function<void()>> steps(kClocks);
        for (int c = 0; c < kClocks; ++c) {
            clocks.push_back(std::make_shared<VirtualClock>(pool));
            traces.push_back(std::make_unique<Trace>());
        }
        for (int c = 0; c < kClocks; ++c) {
            // Clock c ticks every c + 1 microseconds, kSteps times.
            steps[c] = [&, c] {
                auto& clock = *clocks[size_t(c)];
                seen[size_t(c)].push_back(clock.nowUs());
                if (int(seen[size_t(c)].size()) < kSteps)
                    clock.schedule(clock.nowUs() + c + 1, steps[size_t(c)]);
                else
                    traces[size_t(c)]->add("done");
            };
            clocks[size_t(c)]->schedule(c + 1, steps[size_t(c)]);
        }
        for (int c = 0; c < kClocks; ++c) {
            QVERIFY(traces[size_t(c)]->waitFor(1));
            const auto& times = seen[size_t(c)];
            QCOMPARE(int(times.size()), kSteps);
            for (int i = 0; i < kSteps; ++i)
                QCOMPARE(times[size_t(i)], int64_t(c + 1) * (i + 1));
        }
    }

    void itsWorkCountsAsItsCpuTime()
    {
        ThreadPool pool(1);
        auto clock = std::make_shared<VirtualClock>(pool);
        Trace trace;
        clock->post([&] {
            const auto start = threadCpuNs();
            volatile uint64_t x = 0;
            while (threadCpuNs() - start < 5'000'000) // 5 ms of CPU
                x = x + 1;
            trace.add("spun");
        });
        QVERIFY(trace.waitFor(1));
        // The runner's slice ends just after the task: give it a moment to add its time.
        for (int i = 0; i < 100 && clock->cpuUs() < 5000; ++i)
            std::this_thread::sleep_for(10ms);
        QVERIFY2(clock->cpuUs() >= 5000, qPrintable(QString::number(clock->cpuUs())));
        QVERIFY2(clock->cpuUs() < 1'000'000, qPrintable(QString::number(clock->cpuUs())));
    }
};

QTEST_GUILESS_MAIN(TestVirtualClock)
#include "tst_virtualclock.moc"
