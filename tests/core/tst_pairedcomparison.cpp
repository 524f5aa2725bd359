// PairedComparison: the intervals a design search drops candidates by — the
// paired Δ at any level agrees with the experiment's 95 % one, and the
// bootstrap ratio is repeatable, paired, and undefined where it must be.
#include <QtTest>

#include "conclave/analysis/ExperimentStats.h"
#include "conclave/analysis/PairedComparison.h"

#include <cmath>
#include <vector>

using namespace conclave;

class TestPairedComparison : public QObject {
    Q_OBJECT

private slots:
    void quantilesAtAnyLevel()
    {
        QCOMPARE(PairedComparison::tQuantile(0.95, 10), ExperimentStats::t975(10));
        QVERIFY(std::fabs(PairedComparison::zQuantile(0.95) - 1.959963984540054) < 1e-12);
        // 1 − 0.05/3: the level of a three-rung search.
        QVERIFY(std::fabs(PairedComparison::zQuantile(1 - 0.05 / 3) - 2.3939797998185104) < 1e-9);
        QVERIFY(std::isnan(PairedComparison::tQuantile(0.95, 0)));
        QVERIFY(std::isnan(PairedComparison::zQuantile(1.0)));
    }

    void accuracyDeltaIsThePairedT()
    {
        const std::vector<double> a{1, 1, 0.5, 1, 0, 1};
        const std::vector<double> b{0, 1, 0.5, 0, 0, 0.5};
        // d = 1, 0, 0, 1, 0, 0.5: mean 0.41667, sd 0.49160, n 6.
        const auto at95 = PairedComparison::accuracyDelta(a, b, 0.95);
        const double half = ExperimentStats::t975(5) * ExperimentStats::sampleSd({1, 0, 0, 1, 0, 0.5}) / std::sqrt(6.0);
        QVERIFY(std::fabs(at95.lo - (2.5 / 6 - half)) < 1e-12);
        QVERIFY(std::fabs(at95.hi - (2.5 / 6 + half)) < 1e-12);
        QCOMPARE(QString::number(at95.lo, 'f', 6), QString("-0.099232"));
        QCOMPARE(QString::number(at95.hi, 'f', 6), QString("0.932565"));
        // A stricter level is wider.
        const auto strict = PairedComparison::accuracyDelta(a, b, 1 - 0.05 / 3);
        QVERIFY(strict.lo < at95.lo && strict.hi > at95.hi);
        // Every task moved alike: Newcombe's interval, as the experiment's.
        const std::vector<double> same{1, 1, 1, 1, 1, 1};
        const std::vector<double> none{0, 0, 0, 0, 0, 0};
        const auto newcombe = PairedComparison::accuracyDelta(same, none, 0.95);
        const auto reference = ExperimentStats::newcombePaired(same, none);
        QCOMPARE(newcombe.lo, reference.lo);
        QCOMPARE(newcombe.hi, reference.hi);
        QVERIFY(std::isnan(PairedComparison::accuracyDelta({1}, {0}, 0.95).lo));
    }

    void ratioBootstrapIsRepeatableAndPaired()
    {
        const std::vector<std::vector<double>> a{{1}, {2}, {3}, {4}, {5}, {6}, {7}, {8}};
        std::vector<std::vector<double>> half;
        for (const auto& t : a)
            half.push_back({t[0] / 2});
        QCOMPARE(PairedComparison::ratio(half, a, PairedComparison::Statistic::Mean), 0.5);
        // Paired: every resample holds the same tasks for both, so a constant ratio has no width.
        const auto constant = PairedComparison::ratioInterval(half, a, PairedComparison::Statistic::Mean, 0.95, 500, 7);
        QCOMPARE(constant.lo, 0.5);
        QCOMPARE(constant.hi, 0.5);
        // Noisy ratios: the same seed gives the same interval; it holds the point estimate.
        const std::vector<std::vector<double>> b{{2}, {1}, {3}, {9}, {5}, {4}, {8}, {6}};
        const auto first = PairedComparison::ratioInterval(b, a, PairedComparison::Statistic::Mean, 0.95, 1000, 11);
        const auto again = PairedComparison::ratioInterval(b, a, PairedComparison::Statistic::Mean, 0.95, 1000, 11);
        QCOMPARE(first.lo, again.lo);
        QCOMPARE(first.hi, again.hi);
        const double point = PairedComparison::ratio(b, a, PairedComparison::Statistic::Mean);
        QCOMPARE(point, 38.0 / 36.0);
        QVERIFY(first.lo < point && point < first.hi);
        QCOMPARE(QString::number(first.lo, 'f', 4), QString("0.7872"));
        QCOMPARE(QString::number(first.hi, 'f', 4), QString("1.4286"));
        // The p95 of every observation of the resampled tasks.
        QCOMPARE(PairedComparison::ratio(a, a, PairedComparison::Statistic::P95), 1.0);
        // A denominator of 0 everywhere: undefined.
        const std::vector<std::vector<double>> zeros(8, std::vector<double>{0});
        QVERIFY(std::isnan(PairedComparison::ratioInterval(a, zeros, PairedComparison::Statistic::Mean, 0.95, 100, 1).lo));
        QCOMPARE(PairedComparison::ratio(zeros, zeros, PairedComparison::Statistic::Mean), 1.0);
    }
};

QTEST_GUILESS_MAIN(TestPairedComparison)
#include "tst_pairedcomparison.moc"
