// StatusSeverity: the rank of every status, and which of two a merged mark shows.
#include <QtTest>

#include "support/QtStrings.h"

#include "conclave/analysis/StatusSeverity.h"

using namespace conclave;

Q_DECLARE_METATYPE(conclave::Status)

class TestStatusSeverity : public QObject {
    Q_OBJECT

private slots:
    void ranks_data()
    {
        QTest::addColumn<Status>("status");
        QTest::addColumn<int>("rank");
        QTest::newRow("queued") << Status::Queued << 0;
        QTest::newRow("skipped") << Status::Skipped << 1;
        QTest::newRow("ok") << Status::Ok << 2;
        QTest::newRow("running") << Status::Running << 3;
        QTest::newRow("cancelled") << Status::Cancelled << 4;
        QTest::newRow("budget exhausted") << Status::BudgetExhausted << 5;
        QTest::newRow("timeout") << Status::Timeout << 6;
        QTest::newRow("failed") << Status::Failed << 7;
    }

    void ranks()
    {
        QFETCH(Status, status);
        QFETCH(int, rank);
        QCOMPARE(StatusSeverity::of(status), rank);
    }

    void worse_data()
    {
        QTest::addColumn<Status>("a");
        QTest::addColumn<Status>("b");
        QTest::addColumn<Status>("worse");
        QTest::newRow("failed over ok") << Status::Ok << Status::Failed << Status::Failed;
        QTest::newRow("either order") << Status::Failed << Status::Ok << Status::Failed;
        QTest::newRow("cancelled over running") << Status::Running << Status::Cancelled << Status::Cancelled;
        QTest::newRow("skipped over queued") << Status::Queued << Status::Skipped << Status::Skipped;
        QTest::newRow("timeout over budget") << Status::Timeout << Status::BudgetExhausted << Status::Timeout;
        QTest::newRow("the same") << Status::Ok << Status::Ok << Status::Ok;
    }

    void worse()
    {
        QFETCH(Status, a);
        QFETCH(Status, b);
        QFETCH(Status, worse);
        QCOMPARE(q(toString(StatusSeverity::worse(a, b))), q(toString(worse)));
    }
};

QTEST_GUILESS_MAIN(TestStatusSeverity)
#include "tst_statusseverity.moc"
