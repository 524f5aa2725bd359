// local/SynthesisTable: a synthesizer that follows a profile's table — the
// chance right per number of right candidates, its own wrong answers (none
// of the candidates'), and the candidates' most supported wrong answer with
// its tie rules.
#include <QtTest>

#include "support/QtStrings.h"

#include "conclave/local/ItemBank.h"
#include "conclave/local/SynthesisTable.h"
#include "conclave/local/TaskSet.h"
#include "conclave/local/WrongAnswers.h"

#include <algorithm>

using namespace conclave;

namespace {

// Truth 783; the wrong answers are its slips (784, 782, 861, 78, 793, 773).
const Task kTask{.id = "t-783", .domain = "math", .prompt = "Calculate 323 + 460.", .answer = "783"};

std::vector<Candidate> given(const std::vector<std::pair<std::string, double>>& answers)
{
    std::vector<Candidate> out;
    for (const auto& [answer, confidence] : answers)
        out.push_back({"e" + std::to_string(out.size()), answer, confidence, "", 0});
    return out;
}

} // namespace

class TestSynthesisTable : public QObject {
    Q_OBJECT

    ItemBank m_bank;
    WrongAnswers m_wrong{kTask, m_bank};

private slots:
    void theLastEntryHoldsForMoreRightCandidates()
    {
        const SynthesisTable table({{0.1, 0.6, 0.95}, 0});
        QCOMPARE(table.pRight(0), 0.1);
        QCOMPARE(table.pRight(1), 0.6);
        QCOMPARE(table.pRight(2), 0.95);
        QCOMPARE(table.pRight(7), 0.95);
    }

    // Right exactly when the draw is below p_k, for k = 0, 1 and 2 right candidates.
    void rightByTheTable_data()
    {
        QTest::addColumn<QStringList>("candidates");
        QTest::addColumn<double>("draw");
        QTest::addColumn<bool>("correct");
        QTest::newRow("k=0 below p0") << QStringList{"784", "782"} << 0.09 << true;
        QTest::newRow("k=0 at p0") << QStringList{"784", "782"} << 0.1 << false;
        QTest::newRow("k=1 below p1") << QStringList{"783", "782"} << 0.59 << true;
        QTest::newRow("k=1 above p1") << QStringList{"783", "782"} << 0.61 << false;
        QTest::newRow("k=2 below p2") << QStringList{"783", "783"} << 0.94 << true;
        QTest::newRow("k=2 above p2") << QStringList{"783", "783", "782"} << 0.96 << false;
    }

    void rightByTheTable()
    {
        QFETCH(QStringList, candidates);
        QFETCH(double, draw);
        QFETCH(bool, correct);
        const SynthesisTable table({{0.1, 0.6, 0.95}, 0});
        std::vector<std::pair<std::string, double>> answers;
        for (const auto& c : candidates)
            answers.emplace_back(c.toStdString(), 0.5);
        bool right = false;
        const auto answer = table.answer(given(answers), "783", m_wrong, 0.5, {.right = draw}, right);
        QCOMPARE(right, correct);
        QCOMPARE(answer == "783", correct);
    }

    void mostSupportedWrong_data()
    {
        QTest::addColumn<QStringList>("candidates"); // answer@confidence
        QTest::addColumn<QString>("answer");
        QTest::newRow("most candidates") << QStringList{"784@0.3", "782@0.9", "784@0.3"} << "784";
        QTest::newRow("tie: larger summed confidence") << QStringList{"782@0.4", "784@0.9", "783@1"} << "784";
        QTest::newRow("full tie: the first given") << QStringList{"782@0.5", "784@0.5"} << "782";
        QTest::newRow("normalised") << QStringList{" 784.@0.5", "784@0.1", "782@0.9"} << "784";
        QTest::newRow("only right ones") << QStringList{"783@0.5"} << "";
    }

    void mostSupportedWrong()
    {
        QFETCH(QStringList, candidates);
        QFETCH(QString, answer);
        std::vector<std::pair<std::string, double>> answers;
        for (const auto& c : candidates) {
            const auto parts = c.split(QLatin1Char('@'));
            answers.emplace_back(parts[0].toStdString(), parts[1].toDouble());
        }
        const auto got = SynthesisTable::mostSupportedWrong(given(answers), "783");
        QCOMPARE(q(got.value_or("")), answer);
    }

    // Wrong, with self_answer 0: always the candidates' most supported wrong answer.
    void wrongFollowsTheCandidates()
    {
        const SynthesisTable table({{0}, 0});
        bool right = true;
        const auto answer = table.answer(given({{"782", 0.5}, {"861", 0.4}, {"861", 0.2}}), "783", m_wrong, 1,
                                         {.right = 0.5, .self = 0}, right);
        QVERIFY(!right);
        QCOMPARE(q(answer), QString("861"));
    }

    // Wrong, with self_answer 1: its own wrong answer, drawn as an expert's —
    // the attractive one below the agreement — moved on past the candidates'.
    void ownWrongAnswerIsNoneOfTheCandidates()
    {
        const SynthesisTable table({{0}, 1});
        const auto& all = m_wrong.all();
        QCOMPARE(all.size(), size_t(6));
        const auto at = size_t(std::find(all.begin(), all.end(), m_wrong.attractive()) - all.begin());
        bool right = true;
        // The attractive answer, no candidate having given it.
        QCOMPARE(q(table.answer(given({{"783", 0.9}}), "783", m_wrong, 1, {.self = 0.99, .wrong = 0.5}, right)),
                 q(m_wrong.attractive()));
        QVERIFY(!right);
        // A candidate gave the attractive one: the next in order, past any other candidate's.
        const auto next = all[(at + 1) % all.size()];
        QCOMPARE(q(table.answer(given({{m_wrong.attractive(), 0.9}, {next, 0.5}}), "783", m_wrong, 1,
                                {.self = 0.5, .wrong = 0.5}, right)),
                 q(all[(at + 2) % all.size()]));
        // Another wrong answer when the draw is above the agreement (other(u) as an expert's).
        QCOMPARE(q(table.answer(given({}), "783", m_wrong, 0, {.self = 0, .wrong = 0.5, .other = 0}, right)),
                 q(m_wrong.other(0)));
    }

    // No candidate is wrong: a wrong answer is its own, whatever self_answer says.
    void noWrongCandidateToTake()
    {
        const SynthesisTable table({{0, 0, 0}, 0});
        bool right = true;
        const auto answer = table.answer(given({{"783", 0.9}, {"783", 0.8}}), "783", m_wrong, 1,
                                         {.right = 0.5, .self = 0.9, .wrong = 0}, right);
        QVERIFY(!right);
        QCOMPARE(q(answer), q(m_wrong.attractive()));
    }

    // Every wrong answer was a candidate's: its own cannot be new, so the most supported one.
    void everyWrongAnswerTaken()
    {
        const Task choice{.id = "c", .domain = "facts", .prompt = "p", .answer = "a", .choices = {"a", "b", "c"}};
        const WrongAnswers wrong(choice, m_bank);
        const SynthesisTable table({{0}, 1});
        bool right = true;
        QCOMPARE(q(table.answer(given({{"b", 0.2}, {"c", 0.9}}), "a", wrong, 1, {.self = 0}, right)), QString("c"));
    }

    // The pairwise figure error_agreement implies: q1·q2 + (1 − q1)(1 − q2)/(K − 1).
    void pairAgreement()
    {
        QCOMPARE(WrongAnswers::pairAgreement(0.5, 0.5, 4), 0.25 + 0.25 / 3);
        QCOMPARE(WrongAnswers::pairAgreement(1, 1, 6), 1.0);
        QCOMPARE(WrongAnswers::pairAgreement(0, 0, 2), 1.0);
        QCOMPARE(WrongAnswers::pairAgreement(0.2, 0.8, 3), 0.16 + 0.16 / 2);
        QCOMPARE(WrongAnswers::pairAgreement(0.3, 0.9, 1), 1.0);
        QCOMPARE(WrongAnswers::pairAgreement(0.3, 0.9, 0), 1.0);
    }
};

QTEST_GUILESS_MAIN(TestSynthesisTable)
#include "tst_synthesistable.moc"
