#include "conclave/routing/RoutePolicy.h"
#include "conclave/routing/ThresholdCalibration.h"

#include <QtTest>

#include <cmath>

using namespace conclave;

namespace {

using Routes = std::vector<RoutePolicy::Route>;

// n tasks over two routes {weak (cheap), strong (dear)}: p_weak falls and p_strong rises with the index.
std::vector<Routes> twoRoutes(size_t n)
{
    std::vector<Routes> out;
    for (size_t i = 0; i < n; ++i) {
        const double u = (double(i) + 0.5) / double(n);
        out.push_back({{"weak-7b", 0.88 - 0.6 * u, 0.001}, {"frontier-70b", 0.93 + 0.04 * std::sin(7.0 * u), 0.02}});
    }
    return out;
}

} // namespace

class TestRoutePolicy : public QObject {
    Q_OBJECT

private slots:
    void decisions_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<double>("threshold");
        QTest::addColumn<double>("costWeight");
        QTest::addColumn<int>("route");
        QTest::addColumn<QString>("note");
        const auto k = [](RoutePolicy::Kind kind) { return int(kind); };
        QTest::newRow("cheapest above") << k(RoutePolicy::Kind::CheapestAbove) << 0.7 << 0.0 << 1
                                        << QString("route math-13b: p 0.81 ≥ 0.70 (cheapest above)");
        QTest::newRow("none above") << k(RoutePolicy::Kind::CheapestAbove) << 0.95 << 0.0 << 2
                                    << QString("route frontier-70b: p 0.93, none ≥ 0.95 (highest p)");
        QTest::newRow("max utility, cost matters") << k(RoutePolicy::Kind::MaxUtility) << 0.0 << 0.5 << 1
                                                   << QString("route math-13b: utility 0.76 = p 0.81 − 0.50 × cost 0.10 (max utility)");
        QTest::newRow("max utility, cost free") << k(RoutePolicy::Kind::MaxUtility) << 0.0 << 0.0 << 2
                                                << QString("route frontier-70b: utility 0.93 = p 0.93 − 0.00 × cost 1.00 (max utility)");
        QTest::newRow("strong weak, to strong") << k(RoutePolicy::Kind::StrongWeak) << 0.3 << 0.0 << 2
                                                << QString("route frontier-70b: p 0.93 − 0.55 = 0.38 ≥ 0.30 (strong-weak)");
        QTest::newRow("strong weak, to weak") << k(RoutePolicy::Kind::StrongWeak) << 0.4 << 0.0 << 0
                                              << QString("route generalist-7b: p 0.93 − 0.55 = 0.38 < 0.40 (strong-weak)");
    }
    void decisions()
    {
        QFETCH(int, kind);
        QFETCH(double, threshold);
        QFETCH(double, costWeight);
        QFETCH(int, route);
        QFETCH(QString, note);
        const Routes routes{{"generalist-7b", 0.55, 0.001}, {"math-13b", 0.81, 0.002}, {"frontier-70b", 0.93, 0.02}};
        const auto d = RoutePolicy::decide(RoutePolicy::Kind(kind), routes, threshold, costWeight, 2, 0);
        QCOMPARE(int(d.route), route);
        QCOMPARE(QString::fromStdString(d.note), note);
    }

    void namesRoundTrip()
    {
        for (const auto& name : RoutePolicy::names())
            QCOMPARE(std::string(RoutePolicy::toString(*RoutePolicy::fromString(name))), name);
        QVERIFY(!RoutePolicy::fromString("cheapest"));
    }

    void thresholdSendsItsShareWithinOneTask_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<int>("tasks");
        QTest::addColumn<double>("share");
        for (const int n : {7, 100, 333})
            for (const double share : {0.0, 0.1, 0.3, 0.5, 0.77, 1.0}) {
                QTest::addRow("strong_weak n=%d share=%.2f", n, share) << int(RoutePolicy::Kind::StrongWeak) << n << share;
                QTest::addRow("cheapest_above n=%d share=%.2f", n, share) << int(RoutePolicy::Kind::CheapestAbove) << n << share;
            }
    }
    void thresholdSendsItsShareWithinOneTask()
    {
        QFETCH(int, kind);
        QFETCH(int, tasks);
        QFETCH(double, share);
        const auto routes = twoRoutes(size_t(tasks));
        std::string error;
        const auto r = ThresholdCalibration::forShare(RoutePolicy::Kind(kind), routes, share, 1, 0, error);
        QVERIFY2(r, error.c_str());
        QVERIFY2(std::abs(double(r->strongTasks) - share * tasks) <= 1.0,
                 qPrintable(QString("%1 strong tasks of %2").arg(r->strongTasks).arg(tasks)));
        // What it reports is what deciding every task at that threshold gives.
        const auto again = ThresholdCalibration::shareAt(RoutePolicy::Kind(kind), routes, r->threshold, 1, 0);
        QCOMPARE(again.strongTasks, r->strongTasks);
    }

    void exactThresholds()
    {
        std::string error;
        // Gains p_strong − p_weak = 0.05 + 0.6u + 0.04 sin 7u rise with u = (i + 0.5)/100 (slope
        // 0.6 + 0.28 cos 7u > 0), so 30 % strong takes i = 70…99 and the threshold is task 70's gain:
        // 0.05 + 0.423 + 0.04 sin 4.935 = 0.473 − 0.039013 = 0.433987.
        const auto r = ThresholdCalibration::forShare(RoutePolicy::Kind::StrongWeak, twoRoutes(100), 0.3, 1, 0, error);
        QCOMPARE(r->strongTasks, size_t(30));
        QCOMPARE(QString::number(r->threshold, 'f', 6), QString("0.433987"));
        QVERIFY(!ThresholdCalibration::forShare(RoutePolicy::Kind::MaxUtility, twoRoutes(10), 0.3, 1, 0, error));
        QCOMPARE(QString::fromStdString(error),
                 QString("max_utility has no threshold: it trades p against cost by cost_weight (sweep it with eval --vary)"));
    }
};

QTEST_GUILESS_MAIN(TestRoutePolicy)
#include "tst_routepolicy.moc"
