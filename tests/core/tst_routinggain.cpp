// RoutingGain: RouteLLM's PGR, APGR and CPT against values computed by hand on
// small fixed curves, with q_w = .4 and q_s = .8 (a gap of .4) unless a row
// says otherwise; the hand computation beside each row lists the anchored
// curve's (share, PGR) points, then APGR's trapezoids and CPT's crossing.
#include <QtTest>

#include "conclave/analysis/RoutingGain.h"

#include <QPointF>

using namespace conclave;

namespace {

// QPointF(share, quality).
std::vector<SharePoint> variants(const QList<QPointF>& points)
{
    std::vector<SharePoint> out;
    for (const auto& p : points)
        out.push_back({p.x(), p.y()});
    return out;
}

constexpr double kWeak = 0.4;
constexpr double kStrong = 0.8;

} // namespace

class TestRoutingGain : public QObject {
    Q_OBJECT

private slots:
    void pgr_data()
    {
        QTest::addColumn<double>("quality");
        QTest::addColumn<double>("weak");
        QTest::addColumn<double>("strong");
        QTest::addColumn<double>("expected");
        QTest::newRow("the weak model's quality") << 0.4 << 0.4 << 0.8 << 0.0;
        QTest::newRow("the strong model's quality") << 0.8 << 0.4 << 0.8 << 1.0;
        QTest::newRow("halfway") << 0.6 << 0.4 << 0.8 << 0.5;
        QTest::newRow("better than the strong model") << 0.9 << 0.4 << 0.8 << 1.25;
        QTest::newRow("worse than the weak model") << 0.3 << 0.4 << 0.8 << -0.25;
    }

    void pgr()
    {
        QFETCH(double, quality);
        QFETCH(double, weak);
        QFETCH(double, strong);
        QFETCH(double, expected);
        const auto value = RoutingGain::pgr(quality, weak, strong);
        QVERIFY(value.has_value());
        QCOMPARE(*value, expected);
    }

    void noGap()
    {
        // q_s = q_w: nothing to recover, every figure undefined, nothing divided by zero.
        const auto v = variants({{0.5, 0.6}});
        QVERIFY(!RoutingGain::pgr(0.6, 0.6, 0.6));
        QVERIFY(!RoutingGain::apgr(v, 0.6, 0.6));
        QVERIFY(RoutingGain::pgrCurve(v, 0.6, 0.6).empty());
        QCOMPARE(RoutingGain::cpt(v, 0.6, 0.6, 0.5).status, CallThreshold::Status::Undefined);
        // A gap within 1e-12 is none.
        QVERIFY(!RoutingGain::pgr(0.6, 0.6, 0.6 + 1e-13));
        // No variants: no curve.
        QVERIFY(!RoutingGain::apgr({}, kWeak, kStrong));
        QCOMPARE(RoutingGain::cpt({}, kWeak, kStrong, 0.5).status, CallThreshold::Status::Undefined);
    }

    void curve()
    {
        // Anchors at (0, 0) and (1, 1); two variants at one share merge into their mean PGR (.5 and 1 → .75).
        const auto c = RoutingGain::pgrCurve(variants({{0.5, 0.8}, {0.5, 0.6}}), kWeak, kStrong);
        QCOMPARE(c.size(), size_t(3));
        QCOMPARE(c[0].share, 0.0);
        QCOMPARE(c[0].pgr, 0.0);
        QCOMPARE(c[1].share, 0.5);
        QCOMPARE(c[1].pgr, 0.75);
        QCOMPARE(c[2].share, 1.0);
        QCOMPARE(c[2].pgr, 1.0);
        // A variant measured at share 0 or 1 replaces the anchor there.
        const auto ends = RoutingGain::pgrCurve(variants({{1, 0.7}, {0, 0.5}}), kWeak, kStrong);
        QCOMPARE(ends.size(), size_t(2));
        QCOMPARE(ends[0].pgr, 0.25);
        QCOMPARE(ends[1].pgr, 0.75);
    }

    void figures_data()
    {
        QTest::addColumn<QList<QPointF>>("points");
        QTest::addColumn<double>("apgr");
        QTest::addColumn<double>("cpt50"); // -1: not reached
        QTest::addColumn<double>("cpt80");
        // PGR .25, .75, .9: curve (0, 0), (.2, .25), (.5, .75), (.8, .9), (1, 1).
        // APGR = .2·.125 + .3·.5 + .3·.825 + .2·.95 = .025 + .15 + .2475 + .19 = .6125.
        // CPT(50 %): .2 + .3·(.5 − .25)/(.75 − .25) = .35. CPT(80 %): .5 + .3·(.8 − .75)/(.9 − .75) = .6.
        QTest::newRow("a rising curve") << QList<QPointF>{{0.2, 0.5}, {0.5, 0.7}, {0.8, 0.76}} << 0.6125 << 0.35 << 0.6;
        // PGR equal to the share: RouteLLM's random router. APGR = ½, CPT(x) = x.
        QTest::newRow("random routing") << QList<QPointF>{{0.25, 0.5}, {0.5, 0.6}, {0.75, 0.7}} << 0.5 << 0.5 << 0.8;
        // PGR .6, .4, .9: curve (0, 0), (.3, .6), (.5, .4), (.7, .9), (1, 1).
        // APGR = .3·.3 + .2·.5 + .2·.65 + .3·.95 = .09 + .1 + .13 + .285 = .605.
        // CPT(50 %): first crossing, on (0, 0)–(.3, .6): .3·.5/.6 = .25.
        // CPT(80 %): .6 and .4 fall short; on (.5, .4)–(.7, .9): .5 + .2·(.8 − .4)/(.9 − .4) = .66.
        QTest::newRow("a curve that dips")
            << QList<QPointF>{{0.3, 0.64}, {0.5, 0.56}, {0.7, 0.76}} << 0.605 << 0.25 << 0.66;
        // A cascade measured at full escalation: PGR .5 at .5, .75 at 1 (replacing the anchor).
        // Curve (0, 0), (.5, .5), (1, .75). APGR = .5·.25 + .5·.625 = .4375.
        // CPT(50 %) = .5, reached at the point; CPT(80 %): .75 at the end — not reached.
        QTest::newRow("a cascade short of 80 %") << QList<QPointF>{{0.5, 0.6}, {1, 0.7}} << 0.4375 << 0.5 << -1.0;
        // Better than the weak model without a strong call: PGR .5 at share 0 (replacing the anchor).
        // Curve (0, .5), (.5, 1), (1, 1). APGR = .5·.75 + .5·1 = .875. CPT(50 %) = 0; CPT(80 %) = .5·.3/.5 = .3.
        QTest::newRow("already halfway at share 0") << QList<QPointF>{{0, 0.6}, {0.5, 0.8}} << 0.875 << 0.0 << 0.3;
        // One variant, PGR .5 at .4: (0, 0), (.4, .5), (1, 1). APGR = .4·.25 + .6·.75 = .55.
        // CPT(50 %) = .4. CPT(80 %): on (.4, .5)–(1, 1): .4 + .6·.3/.5 = .76.
        QTest::newRow("one variant") << QList<QPointF>{{0.4, 0.6}} << 0.55 << 0.4 << 0.76;
    }

    void figures()
    {
        QFETCH(QList<QPointF>, points);
        QFETCH(double, apgr);
        QFETCH(double, cpt50);
        QFETCH(double, cpt80);
        const auto v = variants(points);
        const auto area = RoutingGain::apgr(v, kWeak, kStrong);
        QVERIFY(area.has_value());
        QCOMPARE(*area, apgr);
        const auto check = [&](double fraction, double expected) {
            const auto t = RoutingGain::cpt(v, kWeak, kStrong, fraction);
            if (expected < 0) {
                QCOMPARE(t.status, CallThreshold::Status::NotReached);
                return;
            }
            QCOMPARE(t.status, CallThreshold::Status::Reached);
            QCOMPARE(t.share + 1, expected + 1); // qFuzzyCompare is relative: compare away from 0
        };
        check(0.5, cpt50);
        check(0.8, cpt80);
    }
};

QTEST_GUILESS_MAIN(TestRoutingGain)
#include "tst_routinggain.moc"
