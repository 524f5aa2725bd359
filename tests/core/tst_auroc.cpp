// analysis/Auroc: the Mann–Whitney form, ties counting one half.
#include <QtTest>

#include "conclave/analysis/Auroc.h"

#include <optional>
#include <vector>

using namespace conclave;

class TestAuroc : public QObject {
    Q_OBJECT

private slots:
    void values_data()
    {
        QTest::addColumn<std::vector<double>>("positives");
        QTest::addColumn<std::vector<double>>("negatives");
        QTest::addColumn<double>("auroc");
        QTest::newRow("separated") << std::vector<double>{0.9, 0.8} << std::vector<double>{0.1, 0.2, 0.3} << 1.0;
        QTest::newRow("reversed") << std::vector<double>{0.1} << std::vector<double>{0.5, 0.6} << 0.0;
        QTest::newRow("all tied") << std::vector<double>{0.5, 0.5} << std::vector<double>{0.5} << 0.5;
        // Pairs: (0.9 > 0.5, 0.9 > 0.7), (0.7 = 0.7: ½, 0.7 > 0.5), (0.2 < both): 3.5 of 6.
        QTest::newRow("a tie counts half") << std::vector<double>{0.9, 0.7, 0.2} << std::vector<double>{0.5, 0.7}
                                           << 3.5 / 6;
        // 3 > 0, 3 > 2, 1 > 0: 3 of 6 pairs won.
        QTest::newRow("mixed") << std::vector<double>{3, 1} << std::vector<double>{0, 2, 4} << 3.0 / 6;
    }

    void values()
    {
        QFETCH(std::vector<double>, positives);
        QFETCH(std::vector<double>, negatives);
        QFETCH(double, auroc);
        const auto got = Auroc::of(positives, negatives);
        QVERIFY(got);
        QCOMPARE(*got, auroc);
    }

    void emptySideHasNone()
    {
        QCOMPARE(Auroc::of({}, {0.5}), std::optional<double>());
        QCOMPARE(Auroc::of({0.5}, {}), std::optional<double>());
    }
};

QTEST_GUILESS_MAIN(TestAuroc)
#include "tst_auroc.moc"
