// CallRunner: a late launch of one attempt never takes the place of the next.
#include <QtTest>

#include "support/EngineTestKit.h"
#include "support/ScriptedBackend.h"

using namespace enginetest;

class TestCallRunner : public QObject {
    Q_OBJECT

private slots:
    void aLateLaunchCannotOverwriteTheNextAttemptsId()
    {
        // A 2 s timeout and one retry.
        const auto plan = scriptedOneExpertPlan(2000, 1);
        QVERIFY(plan);
        ThreadPool pool(3);
        TimerService timers(pool);
        auto backend = std::make_shared<ScriptedBackend>();
        // Attempt 1's start() does not return until attempt 2 has been launched:
        // its id becomes known only after it timed out and was retried.
        backend->holdAttempt(1);
        auto run = scriptedRun(plan, backend, std::make_shared<RealClock>(pool, timers));
        run->start();
        QVERIFY(backend->waitUntil([&] { return backend->startedCount() == 2; }, 10s));
        backend->release();
        // The late id of attempt 1 is cancelled at once: its attempt was given up.
        QVERIFY(backend->waitUntil([&] { return backend->cancelledCount() == 1; }, 10s));
        const auto started = backend->started();
        QCOMPARE(started.size(), size_t(2));
        QCOMPARE(started[0].second, 1);
        QCOMPARE(started[1].second, 2);
        const CallId first = started[0].first;
        const CallId second = started[1].first;
        QCOMPARE(backend->cancelled(), std::vector<CallId>{first});

        // Cancelling the run reaches attempt 2 at the backend, by its own id.
        run->cancel();
        QVERIFY(backend->waitUntil([&] { return backend->cancelledCount() == 2; }, 10s));
        QCOMPARE(backend->cancelled(), (std::vector<CallId>{first, second}));
        const auto result = run->wait();
        QCOMPARE(statusOf(result, "e"), QStringLiteral("cancelled"));
        QCOMPARE(attempts(result, "e"), QStringLiteral("1:m:timeout 2:m:cancelled"));
    }
};

QTEST_GUILESS_MAIN(TestCallRunner)
#include "tst_callrunner.moc"
