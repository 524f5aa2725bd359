// groupThousands: counts in notes and messages, thousands separated by commas.
#include <QtTest>

#include "conclave/util/NumberText.h"

class TestNumberText : public QObject {
    Q_OBJECT

private slots:
    void groupThousands_data()
    {
        QTest::addColumn<quint64>("value");
        QTest::addColumn<QString>("text");
        QTest::newRow("0") << quint64(0) << "0";
        QTest::newRow("7") << quint64(7) << "7";
        QTest::newRow("999") << quint64(999) << "999";
        QTest::newRow("1000") << quint64(1000) << "1,000";
        QTest::newRow("99997") << quint64(99997) << "99,997";
        QTest::newRow("100000") << quint64(100000) << "100,000";
        QTest::newRow("1234567") << quint64(1234567) << "1,234,567";
        QTest::newRow("max") << quint64(18446744073709551615ULL) << "18,446,744,073,709,551,615";
    }

    void groupThousands()
    {
        QFETCH(quint64, value);
        QFETCH(QString, text);
        QCOMPARE(QString::fromStdString(conclave::groupThousands(value)), text);
    }
};

QTEST_GUILESS_MAIN(TestNumberText)
#include "tst_numbertext.moc"
