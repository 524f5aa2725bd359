// Qt first: moc fails on <compare> when a conclave header is the first it meets.
#include <QtTest>

#include "conclave/engine/ThreadPool.h"
#include "conclave/engine/TimerService.h"
#include "support/OrderLog.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

using namespace conclave;
using namespace std::chrono_literals;

namespace {

using Log = testsupport::OrderLog;

} // namespace

class TestTimerService : public QObject {
    Q_OBJECT

private slots:
    void firesInDeadlineOrder()
    {
        // One worker runs the callbacks in the order the timer thread hands them over.
        Log log;
        ThreadPool pool(1);
        TimerService timers(pool);
        const auto now = Clock::now();
        timers.schedule(now + 200ms, [&] { log.add("200"); });
        timers.schedule(now + 100ms, [&] { log.add("100"); });
        timers.schedule(now + 150ms, [&] { log.add("150"); });
        timers.schedule(now + 50ms, [&] { log.add("50"); });
        QVERIFY(log.waitFor(4));
        QCOMPARE(log.entries(), (QStringList{"50", "100", "150", "200"}));
        QCOMPARE(timers.pending(), size_t(0));
    }

    void sameDeadlineFiresInScheduleOrder()
    {
        Log log;
        ThreadPool pool(1);
        TimerService timers(pool);
        const auto at = Clock::now() + 200ms;
        QStringList expected;
        for (int i = 0; i < 20; ++i) {
            timers.schedule(at, [&log, i] { log.add(std::to_string(i)); });
            expected << QString::number(i);
        }
        QVERIFY(log.waitFor(20));
        QCOMPARE(log.entries(), expected);
    }

    void earlierTimerScheduledLaterWakesTheThread()
    {
        // The timer thread sleeps toward a far deadline; a nearer one must not wait for it.
        Log log;
        ThreadPool pool(1);
        TimerService timers(pool);
        const auto far = timers.schedule(Clock::now() + 1h, [&] { log.add("far"); });
        timers.schedule(Clock::now() + 5ms, [&] { log.add("near"); });
        QVERIFY(log.waitFor(1, 10s));
        QCOMPARE(log.entries(), QStringList{"near"});
        QVERIFY(timers.cancel(far));
    }

    void pastDeadlinesRun_data()
    {
        QTest::addColumn<int>("agoMs");
        QTest::newRow("now") << 0;
        QTest::newRow("one second ago") << 1000;
        QTest::newRow("an hour ago") << 3600 * 1000;
    }

    void pastDeadlinesRun()
    {
        QFETCH(int, agoMs);
        Log log;
        ThreadPool pool(1);
        TimerService timers(pool);
        const auto id = timers.schedule(Clock::now() - std::chrono::milliseconds(agoMs), [&] { log.add("ran"); });
        QVERIFY(id != 0);
        QCOMPARE(timers.pending(), size_t(0));
        QVERIFY(log.waitFor(1));
        QCOMPARE(log.entries(), QStringList{"ran"});
        // It was never pending, so cancelling it is too late.
        QVERIFY(!timers.cancel(id));
    }

    void cancelPendingTimer()
    {
        std::atomic<bool> ran{false};
        ThreadPool pool(1);
        TimerService timers(pool);
        const auto id = timers.schedule(Clock::now() + 1h, [&] { ran = true; });
        QCOMPARE(timers.pending(), size_t(1));
        QVERIFY(timers.cancel(id));
        QCOMPARE(timers.pending(), size_t(0));
        QVERIFY(!timers.cancel(id));  // only once
        QVERIFY(!ran);
    }

    void cancelAfterFiringReturnsFalse()
    {
        Log log;
        ThreadPool pool(1);
        TimerService timers(pool);
        const auto id = timers.schedule(Clock::now() + 1ms, [&] { log.add("ran"); });
        QVERIFY(log.waitFor(1));
        QVERIFY(!timers.cancel(id));
    }

    void cancelUnknownIdReturnsFalse()
    {
        ThreadPool pool(1);
        TimerService timers(pool);
        QVERIFY(!timers.cancel(0));
        QVERIFY(!timers.cancel(12345));
    }

    // One worker runs the callbacks in the order the timer thread hands them
    // over, which is deadline order, and "9" has the last deadline: once it
    // has run, a cancelled timer that fired anyway would already be in the log.
    void cancelledTimerDoesNotRunOthersDo()
    {
        Log log;
        ThreadPool pool(1);
        TimerService timers(pool);
        const auto now = Clock::now();
        std::vector<TimerId> ids;
        for (int i = 0; i < 10; ++i)
            ids.push_back(timers.schedule(now + 50ms + std::chrono::milliseconds(i), [&log, i] {
                log.add(std::to_string(i));
            }));
        int cancelled = 0;
        for (size_t i = 0; i < ids.size(); i += 2)
            cancelled += timers.cancel(ids[i]) ? 1 : 0;
        QCOMPARE(cancelled, 5);
        QVERIFY(log.waitFor(5));
        QCOMPARE(log.entries(), (QStringList{"1", "3", "5", "7", "9"}));
        QCOMPARE(timers.pending(), size_t(0));
    }

    void idsAreDistinct()
    {
        ThreadPool pool(1);
        TimerService timers(pool);
        std::set<TimerId> ids;
        for (int i = 0; i < 100; ++i)
            ids.insert(timers.schedule(Clock::now() + 1h, [] {}));
        QCOMPARE(ids.size(), size_t(100));
        QCOMPARE(timers.pending(), size_t(100));
    }

    void destroyingWithPendingTimersDoesNotRunThem()
    {
        std::atomic<int> ran{0};
        {
            ThreadPool pool(1);
            TimerService timers(pool);
            for (int i = 0; i < 50; ++i)
                timers.schedule(Clock::now() + 1h, [&] { ran.fetch_add(1); });
        }
        QCOMPARE(ran.load(), 0);
    }

    void scheduleFromManyThreads()
    {
        constexpr int kThreads = 4;
        constexpr int kEach = 250;
        std::atomic<int> ran{0};
        Log done;
        ThreadPool pool(2);
        TimerService timers(pool);
        std::vector<std::thread> threads;
        for (int t = 0; t < kThreads; ++t) {
            threads.emplace_back([&, t] {
                for (int i = 0; i < kEach; ++i) {
                    const auto at = Clock::now() + std::chrono::microseconds((i * 7 + t * 13) % 3000);
                    timers.schedule(at, [&] {
                        if (ran.fetch_add(1) + 1 == kThreads * kEach)
                            done.add("all");
                    });
                }
            });
        }
        for (auto& t : threads)
            t.join();
        QVERIFY(done.waitFor(1));
        QCOMPARE(ran.load(), kThreads * kEach);
    }
};

QTEST_GUILESS_MAIN(TestTimerService)
#include "tst_timerservice.moc"
