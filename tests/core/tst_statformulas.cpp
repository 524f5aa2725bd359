// ExperimentStats' formulas on their own: the t quantile, Wilson's interval,
// mean ± t·SE, Newcombe's paired interval, significance and the Pareto
// frontier, against tables and reference implementations
// (z = 1.959963984540054, t975(1) = 12.706204736, t975(3) = 3.182446305).
// The figures of whole experiments: tst_experimentstats.
#include <QtTest>

#include "support/CompareNear.h"

#include "conclave/analysis/ExperimentStats.h"

#include <cmath>
#include <limits>
#include <vector>

using namespace conclave;

class TestStatFormulas : public QObject {
    Q_OBJECT

private slots:
    void t975_data()
    {
        QTest::addColumn<qlonglong>("df");
        QTest::addColumn<double>("expected");
        // Student's t tables (the 0.975 quantile).
        QTest::newRow("1") << 1LL << 12.706204736;
        QTest::newRow("2") << 2LL << 4.302652730;
        QTest::newRow("3") << 3LL << 3.182446305;
        QTest::newRow("5") << 5LL << 2.570581836;
        QTest::newRow("10") << 10LL << 2.228138852;
        QTest::newRow("30") << 30LL << 2.042272456;
        QTest::newRow("100") << 100LL << 1.983971519;
        // Either side of the switch from the exact series to the Cornish–Fisher expansion.
        QTest::newRow("1000") << 1000LL << 1.962339081;
        QTest::newRow("1001") << 1001LL << 1.962336705;
        QTest::newRow("100000") << 100000LL << 1.959987708;
    }

    void t975()
    {
        QFETCH(qlonglong, df);
        QFETCH(double, expected);
        QCOMPARE_NEAR(ExperimentStats::t975(df), expected, 1e-6);
    }

    void t975IsUndefinedWithoutDegreesOfFreedom()
    {
        QVERIFY(std::isnan(ExperimentStats::t975(0)));
        QVERIFY(std::isnan(ExperimentStats::t975(-3)));
    }

    void wilson_data()
    {
        QTest::addColumn<qlonglong>("correct");
        QTest::addColumn<qlonglong>("trials");
        QTest::addColumn<double>("lo");
        QTest::addColumn<double>("hi");
        // centre = (p + z²/2n)/(1 + z²/n), half = z·√(p(1−p)/n + z²/4n²)/(1 + z²/n).
        // 3/4: centre = 1.230182352587/1.960364705174 = 0.627527290886,
        //      half = z·√0.106897794073/1.960364705174 = 0.326885448304.
        QTest::newRow("3 of 4") << 3LL << 4LL << 0.300641842582 << 0.954412739190;
        // 2/4: centre = 0.980182352587/1.960364705174 = 0.5, half = z·√0.122522794073/1.960364705174 = 0.349961010848.
        QTest::newRow("2 of 4") << 2LL << 4LL << 0.150038989152 << 0.849961010848;
        // 0/4: centre = half = 0.480182352587/1.960364705174 = 0.244945418227.
        QTest::newRow("0 of 4") << 0LL << 4LL << 0.0 << 0.489890836455;
        // 4/4: centre = 1.480182352587/1.960364705174 = 0.755054581773, half 0.244945418227.
        QTest::newRow("4 of 4") << 4LL << 4LL << 0.510109163545 << 1.0;
        // 1/2: centre = 1.460364705174/2.920729410347 = 0.5, half = z·√0.365091176293/2.920729410347 = 0.405468794266.
        QTest::newRow("1 of 2") << 1LL << 2LL << 0.094531205734 << 0.905468794266;
        // 2/2: centre = 1.960364705174/2.920729410347 = 0.671190113753, half = z·√0.240091176293/2.920729410347
        //      = 0.328809886247.
        QTest::newRow("2 of 2") << 2LL << 2LL << 0.342380227507 << 1.0;
    }

    void wilson()
    {
        QFETCH(qlonglong, correct);
        QFETCH(qlonglong, trials);
        QFETCH(double, lo);
        QFETCH(double, hi);
        const auto ci = ExperimentStats::wilson(correct, trials);
        QCOMPARE_NEAR(ci.lo, lo, 1e-9);
        QCOMPARE_NEAR(ci.hi, hi, 1e-9);
    }

    void wilsonWithoutTrialsIsUndefined()
    {
        const auto ci = ExperimentStats::wilson(0, 0);
        QVERIFY(std::isnan(ci.lo));
        QVERIFY(std::isnan(ci.hi));
    }

    void meanWithCi()
    {
        // {1, 2, 3, 4}: mean 2.5, sd = √(5/3) = 1.290994449, SE = sd/2 = 0.645497224,
        // half = 3.182446305·0.645497224 = 2.054260257.
        const auto [mean, ci] = ExperimentStats::meanWithCi({1, 2, 3, 4});
        QCOMPARE(mean, 2.5);
        QCOMPARE_NEAR(ci.lo, 0.445739743, 1e-9);
        QCOMPARE_NEAR(ci.hi, 4.554260257, 1e-9);

        // Equal values: sd 0, a CI of no width, exactly.
        const auto [same, none] = ExperimentStats::meanWithCi({0.1, 0.1, 0.1});
        QCOMPARE(same, 0.1);
        QCOMPARE(none.lo, 0.1);
        QCOMPARE(none.hi, 0.1);

        // One value: its own mean, no CI; none: 0, no CI.
        const auto [one, undefined] = ExperimentStats::meanWithCi({0.5});
        QCOMPARE(one, 0.5);
        QVERIFY(std::isnan(undefined.lo) && std::isnan(undefined.hi));
        const auto [empty, alsoUndefined] = ExperimentStats::meanWithCi({});
        QCOMPARE(empty, 0.0);
        QVERIFY(std::isnan(alsoUndefined.lo) && std::isnan(alsoUndefined.hi));
    }

    void paretoFrontier_data()
    {
        QTest::addColumn<QList<double>>("accuracy");
        QTest::addColumn<QList<double>>("cost");
        QTest::addColumn<QList<bool>>("expected");
        // A (0.8, 1) and C, the same point, are both on it; B (0.6, 2) is beaten by A on
        // both; F (0.8, 1.5) ties A's accuracy at a higher cost; D (0.9, 3) is the most
        // accurate; E (0.5, 0.5) the cheapest.
        QTest::newRow("dominated and identical")
            << QList<double>{0.8, 0.6, 0.8, 0.9, 0.5, 0.8} << QList<double>{1.0, 2.0, 1.0, 3.0, 0.5, 1.5}
            << QList<bool>{true, false, true, true, true, false};
        QTest::newRow("equal cost, less accurate")
            << QList<double>{0.5, 0.7} << QList<double>{1.0, 1.0} << QList<bool>{false, true};
        // 41 of 75 as two designs' means of per-task accuracies came out (summed in
        // other orders): the same accuracy, so the dearer one is beaten.
        QTest::newRow("a tie by rounding") << QList<double>{0.5466666666666667, 0.5466666666666666}
                                           << QList<double>{0.00229, 0.00016} << QList<bool>{false, true};
        QTest::newRow("one point") << QList<double>{0.0} << QList<double>{0.0} << QList<bool>{true};
        QTest::newRow("none") << QList<double>{} << QList<double>{} << QList<bool>{};
    }

    void paretoFrontier()
    {
        QFETCH(QList<double>, accuracy);
        QFETCH(QList<double>, cost);
        QFETCH(QList<bool>, expected);
        const auto onFrontier = ExperimentStats::paretoFrontier(std::vector<double>(accuracy.begin(), accuracy.end()),
                                                                std::vector<double>(cost.begin(), cost.end()));
        QCOMPARE(QList<bool>(onFrontier.begin(), onFrontier.end()), expected);
    }

    // Newcombe's interval on 2×2 tables of paired outcomes (r both right, s only the first, t only the
    // second, u neither), against the R implementation in biostatUZH's confIntPairedProportion.
    void newcombePaired_data()
    {
        QTest::addColumn<int>("r");
        QTest::addColumn<int>("s");
        QTest::addColumn<int>("t");
        QTest::addColumn<int>("u");
        QTest::addColumn<double>("lo");
        QTest::addColumn<double>("hi");
        // AD − BC = 120 − 12 = 108 > n/2 = 15: φ = 93/√(16·14·12·18) = 0.422797162332.
        QTest::newRow("10 6 2 12") << 10 << 6 << 2 << 12 << -0.054042954862 << 0.304620903197;
        // AD − BC = 2, below n/2 = 5: φ = 0.
        QTest::newRow("5 3 1 1") << 5 << 3 << 1 << 1 << -0.186962082870 << 0.521086231892;
        // No discordant pair: AD − BC = 4 > 2, φ = 2/√16 = 0.5; Δ = 0 with a CI, not [0, 0].
        QTest::newRow("2 0 0 2") << 2 << 0 << 0 << 2 << -0.349961010848 << 0.349961010848;
    }

    void newcombePaired()
    {
        QFETCH(int, r);
        QFETCH(int, s);
        QFETCH(int, t);
        QFETCH(int, u);
        QFETCH(double, lo);
        QFETCH(double, hi);
        std::vector<double> a;
        std::vector<double> b;
        const auto add = [&](int count, double x, double y) {
            for (int i = 0; i < count; ++i) {
                a.push_back(x);
                b.push_back(y);
            }
        };
        add(r, 1, 1);
        add(s, 1, 0);
        add(t, 0, 1);
        add(u, 0, 0);
        const auto ci = ExperimentStats::newcombePaired(a, b);
        QCOMPARE_NEAR(ci.lo, lo, 1e-9);
        QCOMPARE_NEAR(ci.hi, hi, 1e-9);
        QVERIFY(std::isnan(ExperimentStats::newcombePaired({1}, {0}).lo));
        QVERIFY(std::isnan(ExperimentStats::newcombePaired({1, 0}, {0}).hi));
    }

    void significance_data()
    {
        QTest::addColumn<double>("lo");
        QTest::addColumn<double>("hi");
        QTest::addColumn<int>("expected");
        const double nan = std::numeric_limits<double>::quiet_NaN();
        QTest::newRow("above 0") << 0.01 << 0.5 << int(Significance::Better);
        QTest::newRow("below 0") << -0.5 << -0.01 << int(Significance::Worse);
        QTest::newRow("holds 0") << -0.1 << 0.1 << int(Significance::NotShown);
        QTest::newRow("touches 0 from above") << 0.0 << 0.4 << int(Significance::NotShown);
        QTest::newRow("touches 0 from below") << -0.4 << 0.0 << int(Significance::NotShown);
        QTest::newRow("undefined") << nan << nan << int(Significance::NotShown);
    }

    void significance()
    {
        QFETCH(double, lo);
        QFETCH(double, hi);
        QFETCH(int, expected);
        QCOMPARE(int(ExperimentStats::significance({lo, hi})), expected);
    }
};

QTEST_GUILESS_MAIN(TestStatFormulas)
#include "tst_statformulas.moc"
