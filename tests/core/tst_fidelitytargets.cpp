// The statistics of `conclave fidelity` and `bench fidelity`, on hand-made
// figures with exact answers: a prediction against its measurement
// (FidelityCheck::compare), Kendall's τ-b over separated pairs
// (RankAgreement) and issue 31's targets (FidelityTargets).
#include <QtTest>

#include "conclave/analysis/RankAgreement.h"
#include "conclave/experiment/FidelityCheck.h"
#include "conclave/experiment/FidelityTargets.h"

#include <cmath>

using namespace conclave;

namespace {

DesignSummary predicted(double accuracy, Interval ci, double cost, double p50, double p95)
{
    DesignSummary d;
    d.overall.accuracy = accuracy;
    d.overall.ci = ci;
    d.meanCostUsd = cost;
    d.wallMs = {p50, p95};
    return d;
}

FidelityDesign measured(double accuracy, Interval ci, double cost, double p50, double p95)
{
    FidelityDesign d;
    d.measured.accuracy = accuracy;
    d.measured.ci = ci;
    d.measuredCostUsd = cost;
    d.measuredWallMs = {p50, p95};
    return d;
}

} // namespace

class TestFidelityTargets : public QObject {
    Q_OBJECT

private slots:
    void aPredictionAgainstItsMeasurement()
    {
        // se_pred = 0.05/1.96, se_meas = 0.12/1.96: combined 0.13/1.96; Δ = −0.13 → z = −1.96 exactly at the edge.
        const auto m = measured(0.80, {0.68, 0.92}, 0.002, 1000, 3000);
        const auto p = FidelityCheck::compare(predicted(0.67, {0.62, 0.72}, 0.0022, 1100, 2400), m);
        QVERIFY(std::abs(p.z - -1.959963984540054) < 1e-9);
        QVERIFY(p.within);
        QVERIFY(std::abs(*p.costRatio - 1.1) < 1e-12);
        QVERIFY(std::abs(*p.p50Ratio - 1.1) < 1e-12);
        QVERIFY(std::abs(*p.p95Ratio - 0.8) < 1e-12);
        const auto beyond = FidelityCheck::compare(predicted(0.66, {0.61, 0.71}, 0, 0, 0), m);
        QVERIFY(!beyond.within);
        QCOMPARE(*beyond.costRatio, 0.0); // predicted 0 against a measured cost is a ratio of 0
        // No width on either side: equal is z 0, a difference is infinite.
        const auto exact = measured(0.5, {0.5, 0.5}, 0, 0, 0);
        QCOMPARE(FidelityCheck::compare(predicted(0.5, {0.5, 0.5}, 0, 0, 0), exact).z, 0.0);
        QVERIFY(std::isinf(FidelityCheck::compare(predicted(0.6, {0.6, 0.6}, 0, 0, 0), exact).z));
        QVERIFY(!FidelityCheck::compare(predicted(0.5, {0.5, 0.5}, 0, 0, 0), exact).costRatio); // measured 0: no ratio
    }

    void kendallsTauOverSeparatedPairs()
    {
        // Four designs; measured CIs: A [0.1,0.2] B [0.3,0.4] C [0.35,0.5] D [0.6,0.7].
        // Separated pairs: AB AC AD BD CD (B and C overlap): 5. Predicted order A<B, A<C, A<D, B<D and C>D: 4 and 1.
        const std::vector<double> actual{0.15, 0.35, 0.42, 0.65};
        const std::vector<Interval> ci{{0.1, 0.2}, {0.3, 0.4}, {0.35, 0.5}, {0.6, 0.7}};
        const auto order = RankAgreement::of({0.2, 0.3, 0.9, 0.8}, actual, ci);
        QCOMPARE(order.pairs, int64_t(5));
        QCOMPARE(order.concordant, int64_t(4));
        QCOMPARE(order.discordant, int64_t(1));
        QCOMPARE(*order.tauB, 0.6);
        // A tie in prediction: τ-b's denominator √((n0 − n1)·n0) = √(4·5).
        const auto tied = RankAgreement::of({0.2, 0.3, 0.9, 0.9}, actual, ci);
        QCOMPARE(tied.concordant, int64_t(4));
        QCOMPARE(tied.discordant, int64_t(0));
        QVERIFY(std::abs(*tied.tauB - 4 / std::sqrt(20.0)) < 1e-12);
        // Nothing separated: no τ.
        const auto none = RankAgreement::of({0.2, 0.3}, {0.3, 0.35}, {{0.2, 0.4}, {0.25, 0.45}});
        QCOMPARE(none.pairs, int64_t(0));
        QVERIFY(!none.tauB);
    }

    void theTargets()
    {
        FidelityReport first;
        for (int i = 0; i < 4; ++i) {
            auto d = measured(0.7, {0.6, 0.8}, 1, 100, 200);
            FidelityPrediction p;
            p.accuracy.accuracy = 0.7;
            p.accuracy.ci = {0.65 - 0.05 * i, 0.75 + 0.05 * i}; // widths 0.1, 0.2, 0.3, 0.4 against 0.2
            p.within = i != 3;
            p.costRatio = i == 0 ? 1.2 : 1.05;
            p.p50Ratio = i == 1 ? 0.8 : 1.1;
            d.simulated = p;
            first.designs.push_back(d);
        }
        first.designs.push_back(measured(0.5, {0.4, 0.6}, 1, 100, 200)); // not predicted: a miss everywhere
        first.simulatedOrder.tauB = 0.8;
        FidelityReport second = first;
        second.simulatedOrder.tauB.reset(); // no separated pair
        const auto t = FidelityTargets::of({{"w1", first}, {"w2", second}});
        QCOMPARE(t.pairs, int64_t(10));
        QCOMPARE(t.accuracyWithin, int64_t(6));
        QCOMPARE(t.costWithin, int64_t(6));
        QCOMPARE(t.p50Within, int64_t(6));
        QVERIFY(std::abs(t.medianWidthRatio - 1.25) < 1e-12); // median of 0.5, 1, 1.5, 2 (twice)
        QVERIFY(!t.accuracyMet() && !t.costMet() && !t.p50Met());
        QVERIFY(t.widthMet());
        QVERIFY(t.orderMet()); // w2 has nothing to order
        second.simulatedOrder.tauB = 0.5;
        QVERIFY(!FidelityTargets::of({{"w1", first}, {"w2", second}}).orderMet());
        second.simulatedOrder.tauB.reset();
        first.simulatedOrder.tauB.reset();
        QVERIFY(!FidelityTargets::of({{"w1", first}, {"w2", second}}).orderMet()); // nothing ordered anywhere
        QVERIFY(t.text().find("  accuracy within 1.96 combined se: 6 of 10 (60 %) (target >= 90 %, NOT met)\n") != std::string::npos);
        QVERIFY(t.text().find("Kendall's tau-b per world: w1 0.80, w2 n/a") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestFidelityTargets)
#include "tst_fidelitytargets.moc"
