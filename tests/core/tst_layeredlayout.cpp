// The layered layout: layers follow dependencies left to right, crossings that
// an ordering can avoid are avoided, cycles do not break it, and it is fast.
#include <QtTest>

#include "conclave/io/TeamFile.h"
#include "conclave/layout/LayeredLayout.h"

#include <QElapsedTimer>

using conclave::LayeredLayout;

class TestLayeredLayout : public QObject {
    Q_OBJECT

private slots:
    void layersFollowDependencies()
    {
        // 0 -> 1 -> 3, 0 -> 2 -> 3, 0 -> 3
        LayeredLayout::Graph g{4, {{0, 1}, {1, 3}, {0, 2}, {2, 3}, {0, 3}}};
        const auto r = LayeredLayout::compute(g);
        QCOMPARE(r.layers, (std::vector<size_t>{0, 1, 1, 2}));
        QVERIFY(r.positions[0].x < r.positions[1].x);
        QCOMPARE(r.positions[1].x, r.positions[2].x);
        QVERIFY(r.positions[2].x < r.positions[3].x);
        QVERIFY(std::abs(r.positions[1].y - r.positions[2].y) >= 110 - 1e-9); // no overlap
    }

    void untanglesAvoidableCrossings()
    {
        // a0 -> b1, a1 -> b0 listed so that the naive order crosses.
        LayeredLayout::Graph g{6, {{4, 0}, {4, 1}, {0, 3}, {1, 2}, {2, 5}, {3, 5}}};
        const auto r = LayeredLayout::compute(g);
        QCOMPARE(r.crossings, size_t(0));
    }

    void survivesCycles()
    {
        LayeredLayout::Graph g{3, {{0, 1}, {1, 2}, {2, 0}}};
        const auto r = LayeredLayout::compute(g);
        QCOMPARE(r.positions.size(), size_t(3));
        QCOMPARE(r.layers, (std::vector<size_t>{0, 1, 2}));
    }

    void examplesHaveFewCrossings_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("maxCrossings");
        QTest::newRow("triage") << "triage" << 0;
        QTest::newRow("keyword-vote") << "keyword-vote" << 0;
        QTest::newRow("mixture-of-agents") << "mixture-of-agents" << 20;
    }

    void examplesHaveFewCrossings()
    {
        QFETCH(QString, file);
        QFETCH(int, maxCrossings);
        const auto loaded = conclave::loadTeamFile(
            (QStringLiteral(CONCLAVE_RESOURCES "/examples/") + file + QStringLiteral(".team.json")).toStdString());
        QVERIFY(loaded.team);
        const auto r = LayeredLayout::compute(LayeredLayout::graphOf(*loaded.team));
        QVERIFY2(r.crossings <= size_t(maxCrossings), qPrintable(QString::number(r.crossings)));
        // The input is leftmost, the output rightmost.
        const auto& nodes = loaded.team->nodes;
        for (size_t i = 0; i < nodes.size(); ++i) {
            if (nodes[i].kind == conclave::NodeKind::Input)
                QCOMPARE(r.layers[i], size_t(0));
            if (nodes[i].kind == conclave::NodeKind::Output)
                QCOMPARE(r.layers[i], *std::max_element(r.layers.begin(), r.layers.end()));
        }
    }
};

QTEST_GUILESS_MAIN(TestLayeredLayout)
#include "tst_layeredlayout.moc"
