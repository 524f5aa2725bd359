// TokenBucket: requests_per_minute as tokens, on an injected clock.
#include <QtTest>

#include "conclave/http/EndpointLimits.h"
#include "conclave/http/TokenBucket.h"

using namespace conclave;
using namespace std::chrono_literals;
using Clock = TokenBucket::Clock;

class TestTokenBucket : public QObject {
    Q_OBJECT

private slots:
    void burstIsOneSecondsWorth_data()
    {
        QTest::addColumn<int>("perMinute");
        QTest::addColumn<int>("burst");
        QTest::newRow("600/min") << 600 << 10;
        QTest::newRow("60/min") << 60 << 1;
        QTest::newRow("30/min: at least one") << 30 << 1;
        QTest::newRow("90/min") << 90 << 1;
    }
    void burstIsOneSecondsWorth()
    {
        QFETCH(int, perMinute);
        QFETCH(int, burst);
        TokenBucket b(perMinute);
        const auto t0 = Clock::time_point(100s);
        for (int i = 0; i < burst; ++i)
            QVERIFY(!b.tryTake(t0));
        const auto next = b.tryTake(t0);
        QVERIFY(next);
        const double waitMs = std::chrono::duration<double, std::milli>(*next - t0).count();
        QVERIFY2(std::abs(waitMs - 60000.0 / perMinute) < 1, std::to_string(waitMs).c_str());
        QVERIFY(!b.tryTake(*next));  // due then
    }

    void refillsAtTheRateAndNoFurther()
    {
        TokenBucket b(120);  // 2 a second, burst 2
        const auto t0 = Clock::time_point(10s);
        QVERIFY(!b.tryTake(t0));
        QVERIFY(!b.tryTake(t0));
        QVERIFY(b.tryTake(t0));
        QVERIFY(!b.tryTake(t0 + 500ms));
        QVERIFY(b.tryTake(t0 + 500ms));
        // An idle hour saves up no more than the burst.
        const auto later = t0 + 3600s;
        QVERIFY(!b.tryTake(later));
        QVERIFY(!b.tryTake(later));
        QVERIFY(b.tryTake(later));
    }

    void endpointLimitsCountInFlight()
    {
        EndpointLimits l(2, std::nullopt);
        const auto now = Clock::now();
        QVERIFY(l.tryAdmit(now).admitted);
        QVERIFY(l.tryAdmit(now).admitted);
        const auto third = l.tryAdmit(now);
        QVERIFY(!third.admitted);
        QVERIFY(!third.retryAt);  // waits for a release, not for a time
        QCOMPARE(l.inFlight(), int64_t(2));
        l.release();
        QVERIFY(l.tryAdmit(now).admitted);
        l.configure(3, std::nullopt);
        QVERIFY(l.tryAdmit(now).admitted);
        QVERIFY(!l.tryAdmit(now).admitted);
    }

    void endpointLimitsRate()
    {
        EndpointLimits l(std::nullopt, 60);
        const auto now = Clock::now();
        QVERIFY(l.tryAdmit(now).admitted);
        const auto second = l.tryAdmit(now);
        QVERIFY(!second.admitted);
        QVERIFY(second.retryAt);
        QCOMPARE(l.inFlight(), int64_t(1));  // a refusal holds no slot
    }
};

QTEST_GUILESS_MAIN(TestTokenBucket)
#include "tst_tokenbucket.moc"
