// moneyText: the one way an amount of dollars is written, by the CLI, the
// reports, the engine's notes and the studio.
#include <QtTest>

#include "conclave/util/MoneyText.h"

class TestMoneyText : public QObject {
    Q_OBJECT

private slots:
    void moneyText_data()
    {
        QTest::addColumn<double>("usd");
        QTest::addColumn<QString>("text");
        QTest::newRow("zero") << 0.0 << "$0";
        QTest::newRow("dollars") << 12.345 << "$12.35";
        QTest::newRow("a dollar") << 1.5 << "$1.50";
        QTest::newRow("cents") << 0.0234 << "$0.0234";
        QTest::newRow("a cent") << 0.01 << "$0.0100";
        QTest::newRow("below a cent") << 0.0031 << "$0.0031";
        QTest::newRow("a thousandth") << 0.001 << "$0.0010";
        QTest::newRow("below a thousandth") << 0.00022 << "$0.00022";
        QTest::newRow("millionths") << 0.0000012 << "$0.0000012";
        QTest::newRow("below the floor") << 1e-14 << "$0.0000000000";
        QTest::newRow("negative") << -0.5 << "-$0.5000";
        QTest::newRow("negative, tiny") << -0.00022 << "-$0.00022";
    }

    void moneyText()
    {
        QFETCH(double, usd);
        QFETCH(QString, text);
        QCOMPARE(QString::fromStdString(conclave::moneyText(usd)), text);
    }
};

QTEST_GUILESS_MAIN(TestMoneyText)
#include "tst_moneytext.moc"
