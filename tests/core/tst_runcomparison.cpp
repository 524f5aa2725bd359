// RunComparison: two known runs agent by agent, in order, with exact B − A
// deltas, each run's critical path, and agents only one run has.
#include <QtTest>

#include "support/KnownRuns.h"
#include "support/QtStrings.h"

#include "conclave/analysis/RunComparison.h"

using namespace conclave;

class TestRunComparison : public QObject {
    Q_OBJECT

private slots:
    void agentsInTeamOrder()
    {
        const RunComparison c(known_runs::review(), known_runs::slower());
        QStringList nodes;
        for (const auto& r : c.agents())
            nodes << q(r.node.str());
        QCOMPARE(nodes, QStringList({"in", "a", "b", "spare", "panel", "m1", "join", "out"}));
        QVERIFY(!c.agent(NodeId("nobody")));
        QVERIFY(RunComparison().agents().empty());
    }

    void deltas_data()
    {
        QTest::addColumn<QString>("node");
        QTest::addColumn<qint64>("latencyA");
        QTest::addColumn<qint64>("latencyDelta");
        QTest::addColumn<qint64>("tokensA");
        QTest::addColumn<qint64>("tokensDelta");
        QTest::addColumn<double>("costA");
        QTest::addColumn<bool>("statusChanged");
        QTest::newRow("in") << "in" << qint64(100) << qint64(100) << qint64(0) << qint64(0) << 0.0 << false;
        QTest::newRow("a") << "a" << qint64(5000) << qint64(5000) << qint64(150) << qint64(0) << 0.01 << false;
        QTest::newRow("b") << "b" << qint64(2900) << qint64(2900) << qint64(30) << qint64(60) << 0.002 << true;
        QTest::newRow("spare") << "spare" << qint64(0) << qint64(0) << qint64(0) << qint64(0) << 0.0 << false;
        QTest::newRow("panel") << "panel" << qint64(9000) << qint64(9000) << qint64(0) << qint64(0) << 0.0 << false;
        QTest::newRow("m1") << "m1" << qint64(8900) << qint64(8900) << qint64(140) << qint64(0) << 0.01 << false;
    }

    void deltas()
    {
        QFETCH(QString, node);
        QFETCH(qint64, latencyA);
        QFETCH(qint64, latencyDelta);
        QFETCH(qint64, tokensA);
        QFETCH(qint64, tokensDelta);
        QFETCH(double, costA);
        QFETCH(bool, statusChanged);
        const RunComparison c(known_runs::review(), known_runs::slower());
        const auto* r = c.agent(NodeId(node.toStdString()));
        QVERIFY(r);
        QVERIFY(r->a.present && r->b.present);
        QCOMPARE(r->a.latencyUs, latencyA);
        QCOMPARE(r->latencyDelta(), latencyDelta);
        QCOMPARE(r->b.latencyUs, latencyA + latencyDelta);
        QCOMPARE(r->a.tokens, tokensA);
        QCOMPARE(r->tokensDelta(), tokensDelta);
        QCOMPARE(r->a.costUsd, costA);
        QCOMPARE(r->costDelta(), 0.0);
        QCOMPARE(r->statusChanged(), statusChanged);
    }

    void statuses()
    {
        const RunComparison c(known_runs::review(), known_runs::slower());
        QCOMPARE(q(toString(c.agent(NodeId("b"))->a.status)), QString("cancelled"));
        QCOMPARE(q(toString(c.agent(NodeId("b"))->b.status)), QString("timeout"));
        QCOMPARE(q(toString(c.agent(NodeId("spare"))->a.status)), QString("skipped"));
    }

    void eachRunsCriticalPath()
    {
        const RunComparison c(known_runs::review(), known_runs::slower());
        QCOMPARE(c.analysisA().criticalPathUs, int64_t(9300));
        QCOMPARE(c.analysisB().criticalPathUs, int64_t(18600));
        QCOMPARE(int(c.analysisB().criticalPath.size()), 4);
    }

    void agentsOfOnlyOneRun()
    {
        auto b = known_runs::slower();
        b.teamJson = "not a team";
        b.spans.push_back(known_runs::span(16, 0, "extra", SpanKind::Node, 0, 50));
        const RunComparison c(known_runs::review(), std::move(b));
        const auto* extra = c.agent(NodeId("extra"));
        QVERIFY(extra && !extra->a.present && extra->b.present);
        QCOMPARE(extra->latencyDelta(), int64_t(50));
        QCOMPARE(q(c.agents().back().node.str()), QString("extra")); // after A's agents
        const auto* spare = c.agent(NodeId("spare"));
        QVERIFY(spare->a.present && !spare->b.present);
        QCOMPARE(q(toString(spare->b.status)), QString("skipped"));
    }
};

QTEST_GUILESS_MAIN(TestRunComparison)
#include "tst_runcomparison.moc"
