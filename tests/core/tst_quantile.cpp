// Quantile: linear interpolation between order statistics (Hyndman & Fan
// definition 7), exactly, at the ends, between two values and with none.
#include <QtTest>

#include "conclave/analysis/Quantile.h"

using namespace conclave;

class TestQuantile : public QObject {
    Q_OBJECT

private slots:
    void quantiles_data()
    {
        QTest::addColumn<QList<double>>("sorted");
        QTest::addColumn<double>("p");
        QTest::addColumn<double>("expected");
        const QList<double> five = {1, 2, 3, 4, 10};
        QTest::newRow("minimum") << five << 0.0 << 1.0;
        QTest::newRow("first quartile") << five << 0.25 << 2.0;
        QTest::newRow("median") << five << 0.5 << 3.0;
        QTest::newRow("third quartile") << five << 0.75 << 4.0;
        QTest::newRow("maximum") << five << 1.0 << 10.0;
        QTest::newRow("between two order statistics") << five << 0.875 << 7.0;
        QTest::newRow("median of two") << QList<double>{1, 2} << 0.5 << 1.5;
        QTest::newRow("first quartile of four") << QList<double>{5, 10, 15, 20} << 0.25 << 8.75;
        QTest::newRow("third quartile of four") << QList<double>{5, 10, 15, 20} << 0.75 << 16.25;
        QTest::newRow("one value") << QList<double>{7} << 0.3 << 7.0;
        QTest::newRow("ties") << QList<double>{2, 2, 2, 8} << 0.5 << 2.0;
        QTest::newRow("none") << QList<double>{} << 0.5 << 0.0;
    }

    void quantiles()
    {
        QFETCH(QList<double>, sorted);
        QFETCH(double, p);
        QFETCH(double, expected);
        QCOMPARE(Quantile::of(std::vector<double>(sorted.begin(), sorted.end()), p), expected);
    }
};

QTEST_GUILESS_MAIN(TestQuantile)
#include "tst_quantile.moc"
