// <QtTest> first: moc 6.4 cannot parse <compare> when it is the first standard
// header it meets, and Problem.h reaches it through StrongId.h.
#include <QtTest>

#include "conclave/experiment/AnswerScorer.h"

using namespace conclave;

namespace {

constexpr double kNone = -1; // no tolerance
constexpr int kUnset = -1;   // correct left unset

} // namespace

class TestAnswerScorer : public QObject {
    Q_OBJECT

private slots:
    void score_data()
    {
        QTest::addColumn<QString>("reference");
        QTest::addColumn<QStringList>("choices");
        QTest::addColumn<double>("tolerance");
        QTest::addColumn<QString>("answer");
        QTest::addColumn<int>("correct");
        QTest::addColumn<QString>("expected");
        QTest::addColumn<QString>("method");

        const QStringList none;
        QTest::newRow("exact") << "Paris" << none << kNone << "paris" << 1 << "paris"
                               << "exact";
        QTest::newRow("exact, normalised") << "Paris" << none << kNone << "  PARIS. " << 1 << "paris"
                                           << "exact";
        QTest::newRow("exact, quoted") << "New  York" << none << kNone << "\"new york\"" << 1 << "new york"
                                       << "exact";
        QTest::newRow("exact, wrong") << "Paris" << none << kNone << "Lyon" << 0 << "paris"
                                      << "exact";
        QTest::newRow("exact, empty answer") << "Paris" << none << kNone << "" << 0 << "paris"
                                             << "exact";
        QTest::newRow("exact numbers are text") << "1027" << none << kNone << "1,027" << 0 << "1027"
                                                << "exact";
        QTest::newRow("no reference") << "" << none << kNone << "anything" << kUnset << ""
                                      << "unscored";
        QTest::newRow("no reference, choices") << "" << QStringList{"a", "b"} << kNone << "a" << kUnset << ""
                                               << "unscored";
        QTest::newRow("no reference, tolerance") << "" << none << 0.5 << "1" << kUnset << ""
                                                 << "unscored";

        QTest::newRow("numeric") << "1027" << none << 0.0 << "1027" << 1 << "1027"
                                 << "numeric ±0";
        QTest::newRow("numeric, separators") << "1027" << none << 0.0 << "1,027." << 1 << "1027"
                                             << "numeric ±0";
        QTest::newRow("numeric, reference separators") << "1,027" << none << 0.0 << "1027.0" << 1 << "1,027"
                                                       << "numeric ±0";
        QTest::newRow("numeric, off by one") << "1027" << none << 0.0 << "1028" << 0 << "1027"
                                             << "numeric ±0";
        QTest::newRow("numeric, within") << "1027" << none << 1.0 << "1028" << 1 << "1027"
                                         << "numeric ±1";
        QTest::newRow("numeric, at the edge") << "2.5" << none << 0.5 << "3" << 1 << "2.5"
                                              << "numeric ±0.5";
        QTest::newRow("numeric, beyond the edge") << "2.5" << none << 0.5 << "3.0001" << 0 << "2.5"
                                                  << "numeric ±0.5";
        QTest::newRow("numeric, below") << "2.5" << none << 0.5 << "+2" << 1 << "2.5"
                                        << "numeric ±0.5";
        QTest::newRow("numeric, negative") << "-785" << none << 0.01 << "\u2212785" << 1 << "-785"
                                           << "numeric ±0.01";
        QTest::newRow("numeric, sign matters") << "-785" << none << 0.01 << "785" << 0 << "-785"
                                               << "numeric ±0.01";
        QTest::newRow("numeric, exponent") << "0.0015" << none << 1e-9 << "1.5e-3" << 1 << "0.0015"
                                           << "numeric ±1e-09";
        QTest::newRow("numeric, words") << "1027" << none << 5.0 << "about 1027" << 0 << "1027"
                                        << "numeric ±5";
        QTest::newRow("numeric, unit") << "12" << none << 0.0 << "12 kg" << 0 << "12"
                                       << "numeric ±0";
        QTest::newRow("numeric, decimal comma") << "1.5" << none << 1.0 << "1,5" << 0 << "1.5"
                                                << "numeric ±1";
        QTest::newRow("numeric, empty") << "3" << none << 1.0 << "" << 0 << "3"
                                        << "numeric ±1";
        QTest::newRow("numeric, reference not a number") << "Paris" << none << 1.0 << "paris" << kUnset << "paris"
                                                         << "unscored";
        QTest::newRow("numeric before choices") << "2" << QStringList{"1", "2"} << 0.0 << "2.0" << 1 << "2"
                                                << "numeric ±0";

        const QStringList cities{"Paris", "Lyon", "New York"};
        QTest::newRow("choice") << "Paris" << cities << kNone << "paris." << 1 << "paris"
                                << "choice";
        QTest::newRow("choice, another") << "Paris" << cities << kNone << "Lyon" << 0 << "paris"
                                         << "choice";
        QTest::newRow("choice, spaces") << "New York" << cities << kNone << " new   york " << 1 << "new york"
                                        << "choice";
        QTest::newRow("choice, not a choice") << "Paris" << cities << kNone << "Marseille" << 0 << "paris"
                                              << "choice";
        QTest::newRow("choice, a prefix") << "Paris" << cities << kNone << "par" << 0 << "paris"
                                          << "choice";
        QTest::newRow("choice, normalised reference")
            << "paris" << QStringList{"Paris", "Lyon"} << kNone << "PARIS" << 1 << "paris"
            << "choice";
    }

    void score()
    {
        QFETCH(QString, reference);
        QFETCH(QStringList, choices);
        QFETCH(double, tolerance);
        QFETCH(QString, answer);
        QFETCH(int, correct);
        QFETCH(QString, expected);
        QFETCH(QString, method);

        Task task{.id = "t", .domain = "general", .prompt = "q", .answer = reference.toStdString()};
        for (const auto& choice : choices)
            task.choices.push_back(choice.toStdString());
        if (tolerance != kNone)
            task.tolerance = tolerance;

        const auto score = AnswerScorer::score(task, answer.toStdString());
        QCOMPARE(score.correct.has_value(), correct != kUnset);
        if (correct != kUnset)
            QCOMPARE(*score.correct, correct == 1);
        QCOMPARE(QString::fromStdString(score.expected), expected);
        QCOMPARE(QString::fromStdString(score.method), method);
    }

    void scoresLoadedTasks()
    {
        // The loader and the scorer read numbers the same way: what loads, scores.
        const auto result = TaskSet::fromCsv("id,prompt,answer,tolerance,choices\n"
                                             "a,How many?,\"1,027\",0.5,\n"
                                             "b,Which?,Red,,Red|Blue\n"
                                             "c,Write a poem.,,,\n");
        QVERIFY(result.tasks);
        const auto& tasks = result.tasks->tasks();
        QVERIFY((AnswerScorer::score(tasks[0], "Answer 1027") == AnswerScorer::Score{false, "1,027", "numeric ±0.5"}));
        QVERIFY((AnswerScorer::score(tasks[0], "1027.4") == AnswerScorer::Score{true, "1,027", "numeric ±0.5"}));
        QVERIFY((AnswerScorer::score(tasks[1], "red") == AnswerScorer::Score{true, "red", "choice"}));
        QVERIFY((AnswerScorer::score(tasks[2], "A poem.") == AnswerScorer::Score{std::nullopt, "", "unscored"}));
    }
};

QTEST_GUILESS_MAIN(TestAnswerScorer)
#include "tst_answerscorer.moc"
