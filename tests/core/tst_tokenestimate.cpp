// estimateTokens: tokens ≈ characters / 4, rounded up, wherever no tokenizer counted them.
#include <QtTest>

#include "conclave/util/TokenEstimate.h"

#include <string>

class TestTokenEstimate : public QObject {
    Q_OBJECT

private slots:
    void estimateTokens_data()
    {
        QTest::addColumn<int>("characters");
        QTest::addColumn<qlonglong>("tokens");
        QTest::newRow("empty") << 0 << 0LL;
        QTest::newRow("one character") << 1 << 1LL;
        QTest::newRow("four") << 4 << 1LL;
        QTest::newRow("five") << 5 << 2LL;
        QTest::newRow("400") << 400 << 100LL;
        QTest::newRow("401") << 401 << 101LL;
    }

    void estimateTokens()
    {
        QFETCH(int, characters);
        QFETCH(qlonglong, tokens);
        QCOMPARE(conclave::estimateTokens(size_t(characters)), int64_t(tokens));
        QCOMPARE(conclave::estimateTokens(std::string(size_t(characters), 'x')), int64_t(tokens));
    }

    // Two texts sent together are estimated as one text: 3 + 3 characters are 2 tokens, not 1 + 1.
    void aConcatenationIsOneText()
    {
        QCOMPARE(conclave::estimateTokens(size_t(3 + 3)), int64_t(2));
        QCOMPARE(conclave::estimateTokens("abc") + conclave::estimateTokens("def"), int64_t(2));
        QCOMPARE(conclave::estimateTokens(size_t(2 + 3)), int64_t(2));
        QCOMPARE(conclave::estimateTokens("ab") + conclave::estimateTokens("cde"), int64_t(2));
    }
};

QTEST_GUILESS_MAIN(TestTokenEstimate)
#include "tst_tokenestimate.moc"
