// AnswerFeatures: the seven values a cascade scorer reads of an answer, exact
// for fixed answers; what counts as "one of the choices" a run can see.
#include "conclave/routing/AnswerFeatures.h"

#include <QtTest>

#include <array>

using namespace conclave;

using Features = std::array<double, AnswerFeatures::kCount>;
Q_DECLARE_METATYPE(Features)

class TestAnswerFeatures : public QObject {
    Q_OBJECT

private slots:
    void names()
    {
        const auto& names = AnswerFeatures::names();
        QStringList got;
        for (const auto name : names)
            got << QString::fromUtf8(name.data(), qsizetype(name.size()));
        QCOMPARE(got, (QStringList{"length", "number", "choice", "answer_line", "confidence", "agree", "asked"}));
    }

    void values_data()
    {
        QTest::addColumn<QString>("prompt");
        QTest::addColumn<QString>("answer");
        QTest::addColumn<bool>("answerLine");
        QTest::addColumn<double>("confidence");
        QTest::addColumn<int>("same");
        QTest::addColumn<int>("asked");
        QTest::addColumn<Features>("expected");
        // ln(1 + 8) / ln(1000) = 0.318080836479775; ln 4 / ln 1000 = 0.20068666377598746.
        QTest::newRow("a spelling choice, second of three, one agreeing")
            << "Which word is spelled correctly: separate, separete, seperate?"
            << "separate" << true << 0.8 << 1 << 2 << Features{0.318080836479775, 0, 1, 1, 0.8, 0.5, 2.0 / 3.0};
        QTest::newRow("a number, first member")
            << "Calculate 323 + 460."
            << "783" << false << 0.95 << 0 << 0 << Features{0.20068666377598746, 1, 0, 0, 0.95, 0, 0};
        QTest::newRow("a number the prompt holds is no choice")
            << "What comes after 2, 7, 6, 11, 10, 15, 14?"
            << "14" << false << 0.5 << 1 << 1 << Features{0.15904041823988746, 1, 0, 0, 0.5, 1, 0.5};
        QTest::newRow("a letter is a choice")
            << "Pick one:\nA) red\nB) blue"
            << "b" << true << 1.7 << 0 << 3 << Features{0.10034333188799373, 0, 1, 1, 1, 0, 0.75};
        QTest::newRow("a later whole word counts")
            << "Is a yesterday a day? Answer yes or no."
            << "yes" << true << 0.6 << 3 << 3 << Features{0.20068666377598746, 0, 1, 1, 0.6, 1, 0.75};
        QTest::newRow("words the prompt lacks")
            << "What is the capital city of France?"
            << "lyon" << false << 0.3 << 0 << 1 << Features{0.2329900014453396, 0, 0, 0, 0.3, 0, 0.5};
        QTest::newRow("a long answer's length stops at 1")
            << "Say something." << QString(1200, 'x') << true << 0.5 << 0 << 0 << Features{1, 0, 0, 1, 0.5, 0, 0};
    }

    void values()
    {
        QFETCH(QString, prompt);
        QFETCH(QString, answer);
        QFETCH(bool, answerLine);
        QFETCH(double, confidence);
        QFETCH(int, same);
        QFETCH(int, asked);
        QFETCH(Features, expected);
        const auto p = prompt.toStdString();
        const auto a = answer.toStdString();
        const auto got = AnswerFeatures::of({p, a, answerLine, confidence, same, asked});
        for (size_t k = 0; k < got.size(); ++k)
            QVERIFY2(got[k] == expected[k], qPrintable(QStringLiteral("feature %1: %2, expected %3")
                                                           .arg(k)
                                                           .arg(got[k], 0, 'g', 17)
                                                           .arg(expected[k], 0, 'g', 17)));
    }

    void choice_data()
    {
        QTest::addColumn<QString>("prompt");
        QTest::addColumn<QString>("answer");
        QTest::addColumn<bool>("expected");
        QTest::newRow("whole word, any case") << "Answer YES or NO."
                                              << "yes" << true;
        QTest::newRow("at the prompt's end") << "Paris or Lyon"
                                             << "lyon" << true;
        QTest::newRow("two words") << "Is it New York or Boston?"
                                   << "new york" << true;
        QTest::newRow("inside a word") << "Whichever"
                                       << "which" << false;
        QTest::newRow("letters a to e") << ""
                                        << "e" << true;
        QTest::newRow("not f") << ""
                               << "f" << false;
        QTest::newRow("empty") << "anything"
                               << "" << false;
        QTest::newRow("a number") << "Is it 3 or 4?"
                                  << "3" << false;
    }

    void choice()
    {
        QFETCH(QString, prompt);
        QFETCH(QString, answer);
        QFETCH(bool, expected);
        QCOMPARE(AnswerFeatures::isChoice(prompt.toStdString(), answer.toStdString()), expected);
    }

    void sameAs()
    {
        QCOMPARE(AnswerFeatures::sameAs("paris", {"paris", "lyon", "paris"}), 2);
        QCOMPARE(AnswerFeatures::sameAs("rome", {"paris"}), 0);
        QCOMPARE(AnswerFeatures::sameAs("rome", {}), 0);
    }
};

QTEST_GUILESS_MAIN(TestAnswerFeatures)
#include "tst_answerfeatures.moc"
