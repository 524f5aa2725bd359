// <QtTest> first: moc 6.4 cannot parse <compare> when it is the first standard
// header it meets.
#include <QtTest>

#include "support/Correlation.h"

#include "conclave/engine/DeterministicRandom.h"
#include "conclave/experiment/JointFit.h"
#include "conclave/experiment/NormalOgive.h"
#include "conclave/local/ItemBank.h"

#include <cmath>
#include <string>
#include <vector>

using namespace conclave;

namespace {

// A world drawn from the simulator's own curve with known hidden parameters:
// every model answers every task `seeds` times, P = Φ((a − √w·z)/√(1 − w)).
struct Hidden {
    std::vector<std::vector<double>> skill; // [model][domain]
    std::vector<double> weight;             // [model]
    size_t tasks = 0;
    int seeds = 2;
    uint64_t seed = 1;
};

struct Drawn {
    JointFit::Input input;
    std::vector<double> z;
};

Drawn draw(const Hidden& hidden)
{
    Drawn out;
    out.input.models = hidden.skill.size();
    out.input.domains = hidden.skill.front().size();
    out.input.tasks = hidden.tasks;
    for (size_t t = 0; t < hidden.tasks; ++t) {
        const double z = DeterministicRandom::normal(DeterministicRandom::key({"task", std::to_string(t)}, hidden.seed), 1);
        out.z.push_back(z);
        const size_t domain = t % out.input.domains;
        for (size_t m = 0; m < out.input.models; ++m) {
            for (int s = 0; s < hidden.seeds; ++s) {
                const double w = hidden.weight[m];
                const double a = ItemBank::ability(hidden.skill[m][domain]);
                const double p = NormalOgive::cdf((a - std::sqrt(w) * z) / std::sqrt(1 - w));
                const uint64_t key = DeterministicRandom::key(
                    {"answer", std::to_string(t), std::to_string(m), std::to_string(s)}, hidden.seed);
                out.input.responses.push_back({m, domain, t, DeterministicRandom::unit(key) < p});
            }
        }
    }
    return out;
}

} // namespace

class TestJointFit : public QObject {
    Q_OBJECT

private slots:
    void recoversHiddenParameters_data();
    void recoversHiddenParameters();
    void posteriorModeOfOneTask();
    void weightIsKeptWhenNothingIsShared();
    void allRightGivesTheTopAbility();
};

void TestJointFit::recoversHiddenParameters_data()
{
    QTest::addColumn<std::vector<double>>("weights");
    QTest::addColumn<quint64>("seed");
    QTest::addColumn<double>("minCorrelation"); // the less variance is the task's, the less its z can be read
    QTest::newRow("spread weights") << std::vector<double>{0.4, 0.55, 0.7, 0.8, 0.9} << quint64(1) << 0.85;
    QTest::newRow("low weights") << std::vector<double>{0.2, 0.3, 0.3, 0.4, 0.5} << quint64(7) << 0.75;
    QTest::newRow("high weights") << std::vector<double>{0.85, 0.85, 0.9, 0.9, 0.95} << quint64(23) << 0.85;
}

// 5 models × 2,000 answers over 1,000 tasks: skills within 0.03, weights
// within 0.1, the fitted difficulties correlating with the hidden ones.
void TestJointFit::recoversHiddenParameters()
{
    QFETCH(std::vector<double>, weights);
    QFETCH(quint64, seed);
    QFETCH(double, minCorrelation);
    Hidden hidden;
    hidden.skill = {{0.9, 0.6}, {0.75, 0.8}, {0.55, 0.65}, {0.85, 0.4}, {0.7, 0.7}};
    hidden.weight = weights;
    hidden.tasks = 1000;
    hidden.seed = seed;
    const auto drawn = draw(hidden);
    QCOMPARE(drawn.input.responses.size(), size_t(10000));
    const auto fit = JointFit::fit(drawn.input);
    QVERIFY(fit.converged);
    for (size_t m = 0; m < 5; ++m) {
        QVERIFY(fit.weightFitted[m]);
        QVERIFY2(std::abs(fit.weight[m] - weights[m]) <= 0.1,
                 qPrintable(QString("model %1: w %2, hidden %3").arg(m).arg(fit.weight[m]).arg(weights[m])));
        for (size_t d = 0; d < 2; ++d) {
            const double skill = NormalOgive::cdf(fit.ability[m][d]);
            QVERIFY2(std::abs(skill - hidden.skill[m][d]) <= 0.03,
                     qPrintable(QString("model %1 domain %2: skill %3, hidden %4")
                                    .arg(m).arg(d).arg(skill).arg(hidden.skill[m][d])));
        }
    }
    const double r = testsupport::correlation(fit.difficulty, drawn.z);
    QVERIFY2(r >= minCorrelation, qPrintable(QString("correlation %1").arg(r)));
    for (const double z : fit.difficulty)
        QVERIFY(z >= -5 && z <= 5);
}

void TestJointFit::posteriorModeOfOneTask()
{
    // No answers: the prior's mode. One right answer with α = 0, β = 1:
    // the mode solves z = −λ(−z) ... found by Newton; its defining equation holds.
    QCOMPARE(JointFit::posteriorMode({}), 0.0);
    const double z = JointFit::posteriorMode({{0, 1, true}});
    QVERIFY(z < 0);
    QVERIFY(std::abs(-z - NormalOgive::mills(-z)) < 1e-9);
    // Right answers that only a task below z = −5.7 allows push it to the clamp.
    std::vector<JointFit::Line> lines(200, JointFit::Line{-40, 7, true});
    QCOMPARE(JointFit::posteriorMode(lines), -5.0);
}

void TestJointFit::weightIsKeptWhenNothingIsShared()
{
    // One model, one answer per task: nothing says how much of its variance is the task's.
    JointFit::Input input;
    input.models = 1;
    input.domains = 1;
    input.tasks = 200;
    for (size_t t = 0; t < 200; ++t)
        input.responses.push_back({0, 0, t, t % 4 != 0});
    JointFit::Options options;
    options.startWeight = 0.6;
    const auto fit = JointFit::fit(input, options);
    QVERIFY(!fit.weightFitted[0]);
    QVERIFY(std::abs(fit.weight[0] - 0.6) < 1e-12);
    // The marginal accuracy is 0.75, and the skill is the accuracy on the typical task.
    QVERIFY(std::abs(NormalOgive::cdf(fit.ability[0][0]) - 0.75) < 1e-4);
}

void TestJointFit::allRightGivesTheTopAbility()
{
    JointFit::Input input;
    input.models = 2;
    input.domains = 2;
    input.tasks = 40;
    for (size_t t = 0; t < 40; ++t) {
        input.responses.push_back({0, 0, t, true});
        input.responses.push_back({1, 0, t, t % 2 == 0});
    }
    const auto fit = JointFit::fit(input);
    QCOMPARE(fit.ability[0][0], 6.0);
    QVERIFY(std::isnan(fit.ability[0][1]));
    QVERIFY(std::isnan(fit.ability[1][1]));
}

QTEST_GUILESS_MAIN(TestJointFit)
#include "tst_jointfit.moc"
