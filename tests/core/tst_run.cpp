// Run: what the scheduler guarantees its observers, whatever reaches it late.
#include <QtTest>

#include "support/EngineTestKit.h"
#include "support/RunInvariants.h"
#include "support/ScriptedBackend.h"

using namespace enginetest;

class TestRun : public QObject {
    Q_OBJECT

private slots:
    void noEventReachesTheObserversAfterRunFinished()
    {
        const auto plan = scriptedOneExpertPlan(30000, 0);
        QVERIFY(plan);

        ThreadPool pool(2);
        TimerService timers(pool);
        auto backend = std::make_shared<ScriptedBackend>();
        invariants::EventLog log;
        auto run = scriptedRun(plan, backend, std::make_shared<RealClock>(pool, timers), {&log});
        run->start();
        QVERIFY(backend->waitUntil([&] { return backend->startedCount() == 1; }, 10s));
        backend->reply(backend->started()[0].first, "Hello.\nAnswer: hello\nConfidence: 0.9");
        const auto result = run->wait();
        QCOMPARE(q(toString(result.status)), QStringLiteral("ok"));
        QCOMPARE(log.runsFinished(), 1);

        // What a late callback would do: open, stream into and close a span, settle a node.
        {
            auto lock = run->lock();
            const SpanId late = run->openSpan(SpanKind::Attempt, NodeId("e"), 0, "late", 0, 2, "m");
            run->emitToken(NodeId("e"), late, "late text");
            run->closeSpan(late, Status::Ok);
            NodeResult r;
            r.status = Status::Failed;
            run->settle(1, r);
        }
        QCOMPARE(log.afterEnd(), std::vector<std::string>{});
        QCOMPARE(log.runsFinished(), 1);
        // The result the run returned is the one it finished with.
        QCOMPARE(run->wait().spans.size(), result.spans.size());
        QCOMPARE(statusOf(run->wait(), "e"), QStringLiteral("ok"));
    }
};

QTEST_GUILESS_MAIN(TestRun)
#include "tst_run.moc"
