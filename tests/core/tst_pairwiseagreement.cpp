// <QtTest> first: moc 6.4 cannot parse <compare> when it is the first standard
// header it meets.
#include <QtTest>

#include "conclave/engine/DeterministicRandom.h"
#include "conclave/experiment/PairwiseAgreement.h"
#include "conclave/local/WrongAnswers.h"

#include <string>
#include <vector>

using namespace conclave;

namespace {

using Answer = CalibrationSamples::Answer;

Answer wrong(const std::string& model, const std::string& task, const std::string& answer, int options = 3)
{
    Answer a;
    a.model = model;
    a.domain = "facts";
    a.task = task;
    a.hasChoices = true;
    a.answer = answer;
    a.correct = false;
    a.wrongOptions = options;
    return a;
}

// The simulator's rule with known q: each model is wrong with chance ½ and
// then gives the attractive answer ("a") with chance q, else one of the K − 1 others.
std::vector<Answer> drawn(const std::vector<double>& q, int tasks, int options, uint64_t seed)
{
    std::vector<Answer> out;
    for (int t = 0; t < tasks; ++t) {
        for (size_t m = 0; m < q.size(); ++m) {
            const auto key = DeterministicRandom::key({std::to_string(t), std::to_string(m)}, seed);
            Answer a = wrong("m" + std::to_string(m), "set\nt" + std::to_string(t), "", options);
            if (DeterministicRandom::unit(key, 1) < 0.5) {
                a.correct = true;
                a.answer = "truth";
            } else if (DeterministicRandom::unit(key, 2) < q[m]) {
                a.answer = "a";
            } else {
                const int other = int(DeterministicRandom::unit(key, 3) * double(options - 1));
                a.answer = "o" + std::to_string(other);
            }
            out.push_back(a);
        }
    }
    return out;
}

} // namespace

class TestPairwiseAgreement : public QObject {
    Q_OBJECT

private slots:
    void countsPairsOfDifferentModels();
    void recoversTheSimulatorsParameter_data();
    void recoversTheSimulatorsParameter();
};

void TestPairwiseAgreement::countsPairsOfDifferentModels()
{
    // Task 1: x and y both say "b", x again (a second seed) says "c"; z is right.
    // Pairs of different models: (x b, y b) same, (x c, y b) not. A model's own
    // two answers never pair. Task 2: one wrong answer, no pair. Task 3 has one wrong choice only.
    auto right = wrong("z", "s\n1", "a");
    right.correct = true;
    const std::vector<Answer> answers{wrong("x", "s\n1", "b"), wrong("y", "s\n1", "b"), wrong("x", "s\n1", "c"), right,
                                      wrong("x", "s\n2", "b"), wrong("x", "s\n3", "b", 1), wrong("y", "s\n3", "b", 1)};
    const auto fit = PairwiseAgreement::fit(answers);
    QCOMPARE(fit.models.size(), size_t(2));
    QCOMPARE(fit.models.at("x").pairs, int64_t(2));
    QCOMPARE(fit.models.at("x").same, int64_t(1));
    QCOMPARE(fit.models.at("y").pairs, int64_t(2));
    QCOMPARE(fit.models.at("y").same, int64_t(1));
}

void TestPairwiseAgreement::recoversTheSimulatorsParameter_data()
{
    QTest::addColumn<std::vector<double>>("q");
    QTest::addColumn<int>("options");
    QTest::addColumn<quint64>("seed");
    QTest::newRow("three wrong choices") << std::vector<double>{0.4, 0.6, 0.8} << 3 << quint64(1);
    QTest::newRow("uniform errors") << std::vector<double>{0.34, 0.34, 0.34, 0.34} << 3 << quint64(2);
    QTest::newRow("five wrong choices") << std::vector<double>{0.3, 0.9, 0.5} << 5 << quint64(3);
}

void TestPairwiseAgreement::recoversTheSimulatorsParameter()
{
    QFETCH(std::vector<double>, q);
    QFETCH(int, options);
    QFETCH(quint64, seed);
    const auto fit = PairwiseAgreement::fit(drawn(q, 4000, options, seed));
    // What the simulator will do with the fitted q — how often two models'
    // errors agree — is what must come back: each pair's within 0.03. (q
    // itself is weakly determined near 1/K, where p is flat in q.)
    const auto fitted = [&](size_t m) { return fit.models.at("m" + std::to_string(m)).fitted; };
    for (size_t a = 0; a < q.size(); ++a) {
        for (size_t b = a + 1; b < q.size(); ++b) {
            const double hidden = WrongAnswers::pairAgreement(q[a], q[b], size_t(options));
            const double got = WrongAnswers::pairAgreement(fitted(a), fitted(b), size_t(options));
            QVERIFY2(std::abs(got - hidden) <= 0.03,
                     qPrintable(QString("m%1, m%2: %3, hidden %4").arg(a).arg(b).arg(got).arg(hidden)));
        }
    }
}

QTEST_GUILESS_MAIN(TestPairwiseAgreement)
#include "tst_pairwiseagreement.moc"
