// CurveBootstrap: the curve figures on all tasks (hand-computed), their 95 %
// percentile intervals over 2,000 task resamples for a fixed small data set and
// seed (computed once, asserted to 4 decimals), resamples without a gap counted,
// a data set without any gap, and inconsistent input refused with its message.
#include <QtTest>

#include "conclave/analysis/CurveBootstrap.h"

#include <cmath>

using namespace conclave;

namespace {

double round4(double value)
{
    return std::round(value * 1e4) / 1e4;
}

// Five tasks. The weak model is right on tasks 0 and 3 (quality .4) at 1 USD a
// trial, the strong one on 0, 1, 3 and 4 (.8) at 6 USD: they differ on tasks 1
// and 4 only, so a resample that draws neither has no gap.
// - "sw", a strong_weak router at three thresholds:
//   (cost 2, quality .6, share .2), (3.6, .8, .6), (4.4, .8, .8);
// - "cascade", two members, escalating 40 % of trials, then all:
//   (1.8, .6, share .4), (6, .6, share 1);
// - "moe", a router among more models, no strong and weak: (2, .6), (4, .8).
CurveBootstrapInput dataSet()
{
    CurveBootstrapInput in;
    in.references = {{{1, 0, 0, 1, 0}, {1, 1, 1, 1, 1}, {}}, {{1, 1, 0, 1, 1}, {6, 6, 6, 6, 6}, {}}};
    CurveInput sw{"sw", {}, 0, 1};
    sw.variants = {{{1, 0, 0, 1, 1}, {1.2, 1.2, 1.2, 1.2, 5.2}, {0, 0, 0, 0, 1}},
                   {{1, 1, 0, 1, 1}, {1.2, 5.2, 1.2, 5.2, 5.2}, {0, 1, 0, 1, 1}},
                   {{1, 1, 0, 1, 1}, {5.2, 5.2, 1.2, 5.2, 5.2}, {1, 1, 0, 1, 1}}};
    CurveInput cascade{"cascade", {}, 0, 1};
    cascade.variants = {{{1, 1, 0, 1, 0}, {1, 3, 1, 3, 1}, {0, 1, 0, 1, 0}},
                        {{1, 1, 0, 1, 0}, {6, 6, 6, 6, 6}, {1, 1, 1, 1, 1}}};
    CurveInput moe{"moe", {}, std::nullopt, std::nullopt};
    moe.variants = {{{1, 1, 0, 1, 0}, {2, 2, 2, 2, 2}, {}}, {{1, 1, 0, 1, 1}, {4, 4, 4, 4, 4}, {}}};
    in.curves = {sw, cascade, moe};
    return in;
}

CurveReport computed(const CurveBootstrapInput& input, const CurveBootstrap::Options& options = {})
{
    std::string error;
    const auto report = CurveBootstrap::compute(input, options, error);
    if (!report)
        qFatal("unexpected error: %s", error.c_str());
    return *report;
}

} // namespace

class TestCurveBootstrap : public QObject {
    Q_OBJECT

private slots:
    void pointBandsUseTheSameDraws()
    {
        const auto report = computed(dataSet());
        QCOMPARE(report.referenceQualityCi.size(), size_t(2));
        QCOMPARE(report.curves[0].qualityCi.size(), size_t(3));
        // sw's second and third variants answer as the dear model does, task by task: the same band.
        QCOMPARE(report.curves[0].qualityCi[1].lo, report.referenceQualityCi[1].lo);
        QCOMPARE(report.curves[0].qualityCi[1].hi, report.referenceQualityCi[1].hi);
        QCOMPARE(report.curves[0].qualityCi[2].hi, report.referenceQualityCi[1].hi);
        // Five tasks of 0 and 1: each band's bounds are multiples of 1/5.
        QCOMPARE(report.referenceQualityCi[0].lo, 0.0);
        QCOMPARE(report.referenceQualityCi[0].hi, 0.8);
        QCOMPARE(report.referenceQualityCi[1].lo, 0.4);
        QCOMPARE(report.referenceQualityCi[1].hi, 1.0);
    }

    void pointEstimates()
    {
        const auto report = computed(dataSet());
        QCOMPARE(report.resamples, 2000);
        QCOMPARE(report.seed, uint64_t(1));
        QCOMPARE(report.references.size(), size_t(2));
        QCOMPARE(report.references[0].quality, 0.4);
        QCOMPARE(report.references[1].cost, 6.0);
        QCOMPARE(report.axis.lo, 1.0);
        QCOMPARE(report.axis.hi, 6.0);
        QCOMPARE(report.curves.size(), size_t(3));

        // sw: hull (2, .6), (3.6, .8) — (4.4, .8) is no higher. On [1, 6]: [1, 2] 0; [2, 3.6] 1.6·.7 = 1.12;
        // [3.6, 6] 2.4·.8 = 1.92. AIQ = 3.04 / 5 = .608.
        // PGR .5, 1, 1 at shares .2, .6, .8: (0, 0), (.2, .5), (.6, 1), (.8, 1), (1, 1).
        // APGR = .2·.25 + .4·.75 + .2 + .2 = .75; CPT(50 %) = .2; CPT(80 %) = .2 + .4·.3/.5 = .44.
        const auto& sw = report.curves[0];
        QCOMPARE(sw.name, std::string("sw"));
        QCOMPARE(sw.points.size(), size_t(3));
        QCOMPARE(sw.points[1].cost, 3.6);
        QCOMPARE(sw.points[1].quality, 0.8);
        QCOMPARE(sw.shares, (std::vector<double>{0.2, 0.6, 0.8}));
        QCOMPARE(sw.hull.size(), size_t(2));
        QCOMPARE(sw.hull[1].cost, 3.6);
        QCOMPARE(*sw.aiq.value, 0.608);
        QVERIFY(sw.gain.has_value());
        QCOMPARE(*sw.gain->apgr.value, 0.75);
        QCOMPARE(sw.gain->cpt50.value.status, CallThreshold::Status::Reached);
        QCOMPARE(sw.gain->cpt50.value.share, 0.2);
        QCOMPARE(sw.gain->cpt80.value.share, 0.44);

        // cascade: hull (1.8, .6) alone; [1.8, 6] flat .6 = 2.52; AIQ = 2.52 / 5 = .504.
        // PGR .5 at .4 and .5 at 1 (measured, replacing the anchor): (0, 0), (.4, .5), (1, .5).
        // APGR = .4·.25 + .6·.5 = .4; CPT(50 %) = .4; CPT(80 %) not reached.
        const auto& cascade = report.curves[1];
        QCOMPARE(*cascade.aiq.value, 0.504);
        QCOMPARE(*cascade.gain->apgr.value, 0.4);
        QCOMPARE(cascade.gain->cpt50.value.share, 0.4);
        QCOMPARE(cascade.gain->cpt80.value.status, CallThreshold::Status::NotReached);

        // moe: hull (2, .6), (4, .8): [2, 4] 1.4; [4, 6] 1.6; AIQ = 3 / 5 = .6. No APGR or CPT.
        const auto& moe = report.curves[2];
        QCOMPARE(*moe.aiq.value, 0.6);
        QVERIFY(!moe.gain.has_value());
        QVERIFY(moe.shares.empty());
    }

    void intervals_data()
    {
        QTest::addColumn<int>("curve");
        QTest::addColumn<QString>("figure");
        QTest::addColumn<double>("lo"); // -1: not reached
        QTest::addColumn<double>("hi");
        // Seed 1, 2,000 resamples; computed once.
        QTest::newRow("sw AIQ") << 0 << "aiq" << 0.3200 << 0.9120;
        QTest::newRow("sw APGR") << 0 << "apgr" << 0.5500 << 0.9000;
        QTest::newRow("sw CPT(50 %)") << 0 << "cpt50" << 0.1000 << 0.4000;
        QTest::newRow("sw CPT(80 %)") << 0 << "cpt80" << 0.1600 << 0.7600;
        QTest::newRow("cascade AIQ") << 1 << "aiq" << 0.1840 << 0.7600;
        QTest::newRow("cascade APGR") << 1 << "apgr" << 0.0000 << 0.8150;
        QTest::newRow("cascade CPT(50 %)") << 1 << "cpt50" << 0.1850 << -1.0;
        QTest::newRow("cascade CPT(80 %)") << 1 << "cpt80" << 0.2960 << -1.0;
        QTest::newRow("moe AIQ") << 2 << "aiq" << 0.3200 << 0.8000;
    }

    void intervals()
    {
        QFETCH(int, curve);
        QFETCH(QString, figure);
        QFETCH(double, lo);
        QFETCH(double, hi);
        const auto report = computed(dataSet());
        const auto& c = report.curves[size_t(curve)];
        if (figure == "aiq" || figure == "apgr") {
            const auto& f = figure == "aiq" ? c.aiq : c.gain->apgr;
            QCOMPARE(round4(f.ci.lo) + 1, lo + 1);
            QCOMPARE(round4(f.ci.hi) + 1, hi + 1);
            return;
        }
        const auto& t = figure == "cpt50" ? c.gain->cpt50 : c.gain->cpt80;
        const auto check = [](const CallThreshold& bound, double expected) {
            if (expected < 0) {
                QCOMPARE(bound.status, CallThreshold::Status::NotReached);
                return;
            }
            QCOMPARE(bound.status, CallThreshold::Status::Reached);
            QCOMPARE(round4(bound.share) + 1, expected + 1);
        };
        check(t.lo, lo);
        check(t.hi, hi);
    }

    void resamplesWithoutGap()
    {
        // Of 2,000 resamples, 165 drew neither task 1 nor task 4 (expected 2,000·(3/5)⁵ ≈ 156): no gap
        // there, so no APGR or CPT — counted, and left out of their intervals. The axis always has length.
        const auto report = computed(dataSet());
        for (size_t c = 0; c < 2; ++c) {
            QCOMPARE(report.curves[c].gain->apgr.undefinedResamples, 165);
            QCOMPARE(report.curves[c].gain->cpt50.undefinedResamples, 165);
            QCOMPARE(report.curves[c].gain->cpt80.undefinedResamples, 165);
            QCOMPARE(report.curves[c].aiq.undefinedResamples, 0);
        }
    }

    void deterministic()
    {
        const auto a = computed(dataSet());
        const auto b = computed(dataSet());
        QCOMPARE(a.curves[0].gain->apgr.ci.lo, b.curves[0].gain->apgr.ci.lo);
        QCOMPARE(a.curves[0].aiq.ci.hi, b.curves[0].aiq.ci.hi);
        // Another seed, other draws.
        const auto c = computed(dataSet(), {2000, 7});
        QCOMPARE(c.curves[0].gain->apgr.undefinedResamples, 170);
        QCOMPARE(round4(c.curves[0].gain->apgr.ci.lo), 0.5);
    }

    void noGapAnywhere()
    {
        // Both models score the same on every task: PGR is undefined on all tasks and in every resample.
        CurveBootstrapInput in;
        in.references = {{{1, 0}, {1, 1}, {}}, {{1, 0}, {2, 2}, {}}};
        in.curves = {{"flat", {{{1, 0}, {1.5, 1.5}, {0.5, 0.5}}}, 0, 1}};
        const auto report = computed(in);
        const auto& gain = *report.curves[0].gain;
        QVERIFY(!gain.apgr.value.has_value());
        QCOMPARE(gain.apgr.undefinedResamples, 2000);
        QVERIFY(std::isnan(gain.apgr.ci.lo) && std::isnan(gain.apgr.ci.hi));
        QCOMPARE(gain.cpt50.value.status, CallThreshold::Status::Undefined);
        QCOMPARE(gain.cpt50.lo.status, CallThreshold::Status::Undefined);
        QCOMPARE(gain.cpt80.hi.status, CallThreshold::Status::Undefined);
        // AIQ does not need a gap: (1.5, .5) on [1, 2]: [1.5, 2] flat .5 = .25; AIQ = .25.
        QCOMPARE(*report.curves[0].aiq.value, 0.25);
        QCOMPARE(report.curves[0].aiq.undefinedResamples, 0);
    }

    void noResamples()
    {
        const auto report = computed(dataSet(), {0, 1});
        QCOMPARE(*report.curves[0].aiq.value, 0.608);
        QVERIFY(std::isnan(report.curves[0].aiq.ci.lo));
        QCOMPARE(report.curves[0].gain->cpt50.lo.status, CallThreshold::Status::Undefined);
    }

    void refused_data()
    {
        QTest::addColumn<int>("breakage");
        QTest::addColumn<QString>("message");
        QTest::newRow("no references") << 0 << "no single-model references";
        QTest::newRow("no tasks") << 1 << "no tasks";
        QTest::newRow("a short series") << 2 << "curve 'sw' variant 1 cost: 4 tasks, expected 5";
        QTest::newRow("quality above 1") << 3
                                         << "reference 1 quality: task 2 has 1.500000, outside [0.000000, 1.000000]";
        QTest::newRow("a variant without shares") << 4 << "curve 'cascade' variant 0 strong share: 0 tasks, expected 5";
        QTest::newRow("strong naming no reference") << 5 << "curve 'sw': weak and strong must both name a reference";
        QTest::newRow("a negative cost") << 6 << "reference 0 cost: task 0 has -1.000000, outside [0.000000, ∞]";
    }

    void refused()
    {
        QFETCH(int, breakage);
        QFETCH(QString, message);
        auto in = dataSet();
        switch (breakage) {
        case 0:
            in.references.clear();
            break;
        case 1:
            for (auto& r : in.references)
                r.quality.clear(), r.costUsd.clear();
            break;
        case 2:
            in.curves[0].variants[1].costUsd.pop_back();
            break;
        case 3:
            in.references[1].quality[2] = 1.5;
            break;
        case 4:
            in.curves[1].variants[0].strongShare.clear();
            break;
        case 5:
            in.curves[0].strong = 2;
            break;
        case 6:
            in.references[0].costUsd[0] = -1;
            break;
        }
        std::string error;
        QVERIFY(!CurveBootstrap::compute(in, {}, error).has_value());
        QCOMPARE(QString::fromStdString(error), message);
    }
};

QTEST_GUILESS_MAIN(TestCurveBootstrap)
#include "tst_curvebootstrap.moc"
