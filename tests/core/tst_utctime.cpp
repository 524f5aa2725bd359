// UtcTime::parseMs: a UTC date or date-time as a command line gives it
// (`calibrate --runs-from-serve SINCE`), to the millisecond; anything else unset.
#include <QtTest>

#include "conclave/util/UtcTime.h"

using conclave::UtcTime;

class TestUtcTime : public QObject {
    Q_OBJECT

private slots:
    void reads_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<qint64>("ms");
        QTest::newRow("the epoch") << "1970-01-01" << qint64(0);
        QTest::newRow("a date is its midnight") << "2024-05-01" << qint64(1714521600000);
        QTest::newRow("a date-time") << "2024-05-01T13:45:30Z" << qint64(1714571130000);
        QTest::newRow("the last second of a day") << "2023-12-31T23:59:59Z" << qint64(1704067199000);
        QTest::newRow("a leap day") << "2024-02-29" << qint64(1709164800000);
        QTest::newRow("before the epoch") << "1969-12-31T23:59:59Z" << qint64(-1000);
    }
    void reads()
    {
        QFETCH(QString, text);
        QFETCH(qint64, ms);
        const auto parsed = UtcTime::parseMs(text.toStdString());
        QVERIFY(parsed);
        QCOMPARE(qint64(*parsed), ms);
    }

    void refuses_data()
    {
        QTest::addColumn<QString>("text");
        QTest::newRow("a word") << "yesterday";
        QTest::newRow("empty") << "";
        QTest::newRow("no leap day") << "2023-02-29";
        QTest::newRow("month 13") << "2024-13-01";
        QTest::newRow("day 0") << "2024-05-00";
        QTest::newRow("hour 24") << "2024-05-01T24:00:00Z";
        QTest::newRow("minute 60") << "2024-05-01T12:60:00Z";
        QTest::newRow("no Z") << "2024-05-01T12:00:00";
        QTest::newRow("an offset") << "2024-05-01T12:00:00+02:00";
        QTest::newRow("fractions") << "2024-05-01T12:00:00.5Z";
        QTest::newRow("a space for T") << "2024-05-01 12:00:00Z";
        QTest::newRow("short fields") << "2024-5-1";
        QTest::newRow("a sign") << "+024-05-01";
        QTest::newRow("slashes") << "2024/05/01";
        QTest::newRow("date and minutes") << "2024-05-01T12:00Z";
    }
    void refuses()
    {
        QFETCH(QString, text);
        QVERIFY(!UtcTime::parseMs(text.toStdString()));
    }
};

QTEST_GUILESS_MAIN(TestUtcTime)
#include "tst_utctime.moc"
