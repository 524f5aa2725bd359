// CompareModel: the cells of two known runs' comparison, as the table shows
// them (the figures themselves are tst_runcomparison's).
#include <QtTest>

#include "support/KnownRuns.h"
#include "support/QtStrings.h"

#include "timeline/CompareModel.h"
#include "timeline/TimeFormat.h"

using namespace conclave;
using conclave::ui::CompareModel;
using conclave::ui::TimeFormat;

class TestCompareModel : public QObject {
    Q_OBJECT

private slots:
    void oneRowPerAgent()
    {
        CompareModel m;
        m.setRuns(known_runs::review(), known_runs::slower());
        QCOMPARE(m.rowCount(), 8);
        QCOMPARE(m.rowCount(), int(m.comparison().agents().size()));
        QCOMPARE(m.columnCount(), int(CompareModel::ColumnCount));
        QCOMPARE(m.sharedEndUs(), int64_t(18600));
    }

    void cells()
    {
        CompareModel m;
        m.setRuns(known_runs::review(), known_runs::slower());
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

    void agentsOfOnlyOneRun()
    {
        auto b = known_runs::slower();
        b.teamJson = "not a team";
        b.spans.push_back(known_runs::span(16, 0, "extra", SpanKind::Node, 0, 50));
        CompareModel m;
        m.setRuns(known_runs::review(), std::move(b));
        QCOMPARE(m.data(m.index(3, CompareModel::Agent)).toString(), QString("spare"));
        QCOMPARE(m.data(m.index(3, CompareModel::StatusB)).toString(), QString("—"));
        QCOMPARE(m.data(m.index(3, CompareModel::LatencyB)).toString(), QString("—"));
        QCOMPARE(m.data(m.index(8, CompareModel::Agent)).toString(), QString("extra"));
        QCOMPARE(m.data(m.index(8, CompareModel::LatencyA)).toString(), QString("—"));
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
        QCOMPARE(m.data(m.index(1, CompareModel::Agent)).toString(), QString("a"));
        QCOMPARE(m.data(m.index(1, CompareModel::CostDelta)).toString(), QString("+$0.0000012"));
        QCOMPARE(m.data(m.index(1, CompareModel::CostA)).toString(), QString("$0.0100"));
    }
};

QTEST_MAIN(TestCompareModel)
#include "tst_comparemodel.moc"
