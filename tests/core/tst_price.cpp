// Price::costUsd: the one formula from tokens to dollars, at USD per million tokens.
#include <QtTest>

#include "conclave/model/Price.h"

using namespace conclave;

class TestPrice : public QObject {
    Q_OBJECT

private slots:
    void costUsd_data()
    {
        QTest::addColumn<double>("input");
        QTest::addColumn<double>("output");
        QTest::addColumn<double>("tokensIn");
        QTest::addColumn<double>("tokensOut");
        QTest::addColumn<double>("usd");
        // (1,000,000 · 2 + 500,000 · 8) / 1e6 = 2 + 4.
        QTest::newRow("a million in, half out") << 2.0 << 8.0 << 1e6 << 5e5 << 6.0;
        // (30 · 1 + 100 · 2) / 1e6 = 0.00023: the meeting tests' call.
        QTest::newRow("one small call") << 1.0 << 2.0 << 30.0 << 100.0 << 0.00023;
        QTest::newRow("free") << 0.0 << 0.0 << 1000.0 << 1000.0 << 0.0;
        QTest::newRow("no tokens") << 3.0 << 15.0 << 0.0 << 0.0 << 0.0;
    }

    void costUsd()
    {
        QFETCH(double, input);
        QFETCH(double, output);
        QFETCH(double, tokensIn);
        QFETCH(double, tokensOut);
        QFETCH(double, usd);
        const Price price{input, output};
        QCOMPARE(price.costUsd(tokensIn, tokensOut), usd);
    }
};

QTEST_GUILESS_MAIN(TestPrice)
#include "tst_price.moc"
