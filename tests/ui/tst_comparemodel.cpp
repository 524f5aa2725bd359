// CompareModel: per-agent deltas of two known runs, exactly.
#include <QtTest>

#include "support/KnownRuns.h"
#include "support/QtStrings.h"

#include "timeline/CompareModel.h"
#include "timeline/TimeFormat.h"

using namespace conclave;
using conclave::ui::CompareModel;
using conclave::ui::TimeFormat;

namespace {

// Run B: every time doubled, b read 90 tokens instead of 30 and timed out.
StoredRun slower()
{
    auto run = known_runs::review("run-b", 2, 90);
    run.spans[4].status = Status::Timeout;
    return run;
}

} // namespace

class TestCompareModel : public QObject {
    Q_OBJECT

private slots:
    void rowsInTeamOrder()
    {
        CompareModel m;
        m.setRuns(known_runs::review(), slower());
        QStringList nodes;
        for (const auto& r : m.rows())
            nodes << q(r.node.str());
        QCOMPARE(nodes, QStringList({"in", "a", "b", "spare", "panel", "m1", "join", "out"}));
        QCOMPARE(m.rowCount(), 8);
        QCOMPARE(m.columnCount(), int(CompareModel::ColumnCount));
        QCOMPARE(m.sharedEndUs(), int64_t(18600));
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
        CompareModel m;
        m.setRuns(known_runs::review(), slower());
        const auto* r = m.row(NodeId(node.toStdString()));
        QVERIFY(r);
        QVERIFY(r->inA && r->inB);
        QCOMPARE(r->latencyA, latencyA);
        QCOMPARE(r->latencyDelta(), latencyDelta);
        QCOMPARE(r->tokensA, tokensA);
        QCOMPARE(r->tokensDelta(), tokensDelta);
        QCOMPARE(r->costA, costA);
        QCOMPARE(r->costDelta(), 0.0);
        QCOMPARE(r->statusChanged(), statusChanged);
    }

    void statusesAndCells()
    {
        CompareModel m;
        m.setRuns(known_runs::review(), slower());
        const auto* b = m.row(NodeId("b"));
        QVERIFY(b->statusA == Status::Cancelled);
        QVERIFY(b->statusB == Status::Timeout);
        QVERIFY(m.row(NodeId("spare"))->statusA == Status::Skipped);
        const int row = 2;
        QCOMPARE(m.data(m.index(row, CompareModel::Agent)).toString(), QString("b"));
        QCOMPARE(m.data(m.index(row, CompareModel::LatencyA)).toString(), QString("2.90 ms"));
        QCOMPARE(m.data(m.index(row, CompareModel::LatencyDelta)).toString(), QString("+2.90 ms"));
        QCOMPARE(m.data(m.index(row, CompareModel::TokensDelta)).toString(), QString("+60"));
        QCOMPARE(m.data(m.index(row, CompareModel::CostDelta)).toString(), QString("0"));
        QCOMPARE(m.data(m.index(row, CompareModel::StatusA)).toString(), QString("cancelled"));
        QCOMPARE(m.data(m.index(row, CompareModel::StatusB)).toString(), QString("timeout"));
        QCOMPARE(m.headerData(CompareModel::LatencyDelta, Qt::Horizontal).toString(), QString("Δ latency"));
    }

    void eachRunsCriticalPath()
    {
        CompareModel m;
        m.setRuns(known_runs::review(), slower());
        QCOMPARE(m.analysisA().criticalPathUs, int64_t(9300));
        QCOMPARE(m.analysisB().criticalPathUs, int64_t(18600));
        QCOMPARE(int(m.analysisB().criticalPath.size()), 4);
    }

    void agentsOfOnlyOneRun()
    {
        auto b = slower();
        b.teamJson = "not a team";
        b.spans.push_back(known_runs::span(16, 0, "extra", SpanKind::Node, 0, 50));
        CompareModel m;
        m.setRuns(known_runs::review(), std::move(b));
        const auto* extra = m.row(NodeId("extra"));
        QVERIFY(extra && !extra->inA && extra->inB);
        QCOMPARE(extra->latencyDelta(), int64_t(50));
        QVERIFY(!m.row(NodeId("spare"))->inB);
        QCOMPARE(m.data(m.index(3, CompareModel::StatusB)).toString(), QString("—"));
    }

    // A tiny cost, or a tiny difference, keeps two significant digits.
    void costFigures_data()
    {
        QTest::addColumn<double>("usd");
        QTest::addColumn<QString>("text");
        QTest::newRow("zero") << 0.0 << "$0";
        QTest::newRow("dollars") << 12.345 << "$12.35";
        QTest::newRow("cents") << 0.0234 << "$0.0234";
        QTest::newRow("below a cent") << 0.00022 << "$0.00022";
        QTest::newRow("millionths") << 0.0000012 << "$0.0000012";
        QTest::newRow("below the floor") << 1e-14 << "$0.0000000000";
    }

    void costFigures()
    {
        QFETCH(double, usd);
        QFETCH(QString, text);
        QCOMPARE(TimeFormat::cost(usd), text);
    }

    void tinyCostDeltaIsNotZero()
    {
        auto b = known_runs::review("run-b");
        b.spans[3].costUsd += 0.0000012; // a's second attempt
        CompareModel m;
        m.setRuns(known_runs::review(), std::move(b));
        QCOMPARE(q(m.rows()[1].node.str()), QString("a"));
        QCOMPARE(m.data(m.index(1, CompareModel::CostDelta)).toString(), QString("+$0.0000012"));
        QCOMPARE(m.data(m.index(1, CompareModel::CostA)).toString(), QString("$0.0100"));
    }
};

QTEST_MAIN(TestCompareModel)
#include "tst_comparemodel.moc"
