// QualityCostCurve: RouterBench's non-decreasing convex hull and AIQ, against
// values computed by hand on small fixed curves (the hand computation beside
// each row: the hull's vertices, then the area segment by segment ÷ axis length).
#include <QtTest>

#include "conclave/analysis/QualityCostCurve.h"

#include <QPointF>

using namespace conclave;

namespace {

// QPointF(cost, quality): Qt's tables carry points without a new metatype.
std::vector<CurvePoint> curve(const QList<QPointF>& points)
{
    std::vector<CurvePoint> out;
    for (const auto& p : points)
        out.push_back({p.x(), p.y()});
    return out;
}

} // namespace

class TestQualityCostCurve : public QObject {
    Q_OBJECT

private slots:
    void hull_data()
    {
        QTest::addColumn<QList<QPointF>>("points");
        QTest::addColumn<QList<QPointF>>("expected");
        // (3, .65) lies below the segment (2, .6)–(4, .8) (.7 there); (5, .78) is past the top.
        QTest::newRow("a curve with a dip and a fall") << QList<QPointF>{{3, .65}, {1, .4}, {5, .78}, {2, .6}, {4, .8}}
                                                       << QList<QPointF>{{1, .4}, {2, .6}, {4, .8}};
        // (2, .5) is dearer and worse than (1, .9): the hull is the one point.
        QTest::newRow("a dominated point") << QList<QPointF>{{1, .9}, {2, .5}} << QList<QPointF>{{1, .9}};
        QTest::newRow("one point") << QList<QPointF>{{3, .6}} << QList<QPointF>{{3, .6}};
        QTest::newRow("all at one cost: the best")
            << QList<QPointF>{{2, .5}, {2, .7}, {2, .6}} << QList<QPointF>{{2, .7}};
        // (2, .5) is on the segment (1, .25)–(3, .75): not a vertex (binary-exact values, so exactly on it).
        QTest::newRow("a collinear point")
            << QList<QPointF>{{1, .25}, {2, .5}, {3, .75}} << QList<QPointF>{{1, .25}, {3, .75}};
        // Two equally high points: the cheaper one ends the hull; flat from there.
        QTest::newRow("a flat top") << QList<QPointF>{{1, .5}, {2, .8}, {4, .8}} << QList<QPointF>{{1, .5}, {2, .8}};
        QTest::newRow("none") << QList<QPointF>{} << QList<QPointF>{};
    }

    void hull()
    {
        QFETCH(QList<QPointF>, points);
        QFETCH(QList<QPointF>, expected);
        const auto h = QualityCostCurve::hull(curve(points));
        QCOMPARE(qsizetype(h.size()), expected.size());
        for (size_t i = 0; i < h.size(); ++i) {
            QCOMPARE(h[i].cost, expected[qsizetype(i)].x());
            QCOMPARE(h[i].quality, expected[qsizetype(i)].y());
        }
    }

    void qualityAt_data()
    {
        QTest::addColumn<double>("cost");
        QTest::addColumn<double>("expected");
        // On the hull (1, .4), (2, .6), (4, .8).
        QTest::newRow("below the cheapest vertex: nothing") << 0.5 << 0.0;
        QTest::newRow("at the cheapest vertex") << 1.0 << 0.4;
        QTest::newRow("between vertices") << 3.0 << 0.7;
        QTest::newRow("at the top") << 4.0 << 0.8;
        QTest::newRow("beyond the top: flat") << 9.0 << 0.8;
    }

    void qualityAt()
    {
        QFETCH(double, cost);
        QFETCH(double, expected);
        QCOMPARE(QualityCostCurve::qualityAt(curve({{1, .4}, {2, .6}, {4, .8}}), cost), expected);
    }

    void aiq_data()
    {
        QTest::addColumn<QList<QPointF>>("points");
        QTest::addColumn<double>("lo");
        QTest::addColumn<double>("hi");
        QTest::addColumn<double>("expected");
        // Hull (1, .4), (2, .6), (4, .8) on [1, 5]: [1, 2] (.4 + .6)/2 = .5; [2, 4] 2·(.6 + .8)/2 = 1.4;
        // [4, 5] flat .8. (.5 + 1.4 + .8) / 4 = 2.7 / 4 = .675.
        QTest::newRow("weak 1, strong 5")
            << QList<QPointF>{{1, .4}, {2, .6}, {3, .65}, {4, .8}, {5, .78}} << 1.0 << 5.0 << 0.675;
        // Hull (1, .5), (2, .7) on [1, 3]: [1, 2] .6; [2, 3] flat .7. 1.3 / 2 = .65.
        QTest::newRow("a dominated point") << QList<QPointF>{{1, .5}, {2, .7}, {3, .6}} << 1.0 << 3.0 << 0.65;
        // Hull (2, .6), (5, .9) on [1, 3]: [1, 2] 0; [2, 3] from .6 to .7 (clipped): .65. .65 / 2 = .325.
        QTest::newRow("a point beyond the axis") << QList<QPointF>{{2, .6}, {5, .9}} << 1.0 << 3.0 << 0.325;
        // Hull (1, .5), (3, .7) on [2, 4]: [2, 3] from .6 (clipped) to .7: .65; [3, 4] flat .7. 1.35 / 2 = .675.
        QTest::newRow("a point below the axis") << QList<QPointF>{{1, .5}, {3, .7}} << 2.0 << 4.0 << 0.675;
        // (3, .6) on [1, 5]: [1, 3] 0; [3, 5] flat .6 = 1.2. 1.2 / 4 = .3.
        QTest::newRow("one point") << QList<QPointF>{{3, .6}} << 1.0 << 5.0 << 0.3;
        // Hull (2, .7) on [1, 5]: [1, 2] 0; [2, 5] flat .7 = 2.1. 2.1 / 4 = .525.
        QTest::newRow("all points at one cost") << QList<QPointF>{{2, .5}, {2, .7}, {2, .6}} << 1.0 << 5.0 << 0.525;
        // (0.5, .6) below the whole axis [1, 5]: flat .6 all along.
        QTest::newRow("one point cheaper than the axis") << QList<QPointF>{{0.5, .6}} << 1.0 << 5.0 << 0.6;
        // (7, .9) dearer than the whole axis: nothing on it.
        QTest::newRow("one point dearer than the axis") << QList<QPointF>{{7, .9}} << 1.0 << 5.0 << 0.0;
    }

    void aiq()
    {
        QFETCH(QList<QPointF>, points);
        QFETCH(double, lo);
        QFETCH(double, hi);
        QFETCH(double, expected);
        const auto value = QualityCostCurve::aiq(curve(points), CostAxis{lo, hi});
        QVERIFY(value.has_value());
        QCOMPARE(*value, expected);
    }

    void aiqUndefined()
    {
        QVERIFY(!QualityCostCurve::aiq({}, CostAxis{1, 5}));
        QVERIFY(!QualityCostCurve::aiq(curve({{2, .5}}), CostAxis{3, 3}));
    }

    void axis()
    {
        const auto a = QualityCostCurve::axis(curve({{5, .8}, {1, .4}, {3, .7}}));
        QVERIFY(a.has_value());
        QCOMPARE(a->lo, 1.0);
        QCOMPARE(a->hi, 5.0);
        QVERIFY(!QualityCostCurve::axis({}));
    }
};

QTEST_GUILESS_MAIN(TestQualityCostCurve)
#include "tst_qualitycostcurve.moc"
