// Copies of one call are one answer (ModelCalibration's answer weights): a
// deterministic endpoint (temperature 0, a ground-truth world) answers a task
// the same under every seed and in every design that asks it the same way;
// counted as independent draws, the copies made the joint fit see certainty
// it did not have (weights pushed to 0.98, skills off by up to 14 points on
// lab-e's reasoning tasks, intervals as narrow as 900 answers where there
// were 75 tasks). Two logistic worlds of deterministic models, varied: the
// fitted skill predicts the accuracy on tasks it never saw, and the interval
// is as wide as the tasks allow. (The weights are what one answer per model
// and task can say: three models identify three weights, noisily.)
#include <QtTest>

#include "conclave/engine/DeterministicRandom.h"
#include "conclave/experiment/ModelCalibration.h"

#include <cmath>
#include <string>

using namespace conclave;

namespace {

using Answer = CalibrationSamples::Answer;
using R = DeterministicRandom;

struct World {
    double slope;        // the logistic curve's (not the simulator's normal ogive)
    double abilities[3]; // per model
    double shift;        // the tasks' mean difficulty
    uint64_t seed;
};

// Model m's deterministic answer to task t: right with P = 1 / (1 + exp(−slope·(ability − d))), drawn once.
bool right(const World& w, int m, int t)
{
    const double d = w.shift + R::normal(R::key({"d", std::to_string(t)}, w.seed), 1);
    const double p = 1 / (1 + std::exp(-w.slope * (w.abilities[m] - d)));
    return R::unit(R::key({"m", std::to_string(m), std::to_string(t)}, w.seed), 1) < p;
}

// Tasks [first, first + count), each asked of every model in `designs` designs under `seeds` seeds: copies.
CalibrationSamples asked(const World& w, int first, int count, int designs, int seeds)
{
    CalibrationSamples samples;
    for (int t = first; t < first + count; ++t) {
        for (int m = 0; m < 3; ++m) {
            const bool ok = right(w, m, t);
            for (int copy = 0; copy < designs * seeds; ++copy) {
                Answer a;
                a.model = "m" + std::to_string(m);
                a.domain = "facts";
                a.task = "set\nt" + std::to_string(t);
                a.seed = uint64_t(copy % seeds);
                a.correct = ok;
                a.answer = ok ? "right" : "wrong" + std::to_string(t % 3);
                samples.answers.push_back(a);
                samples.calls.push_back({.model = a.model, .ok = true, .durationMs = 100});
            }
        }
    }
    return samples;
}

double accuracyOf(const World& w, int m, int first, int count)
{
    int hits = 0;
    for (int t = first; t < first + count; ++t)
        hits += right(w, m, t) ? 1 : 0;
    return double(hits) / double(count);
}

} // namespace

class TestAnswerCopies : public QObject {
    Q_OBJECT

private slots:
    void aDeterministicModelsCopiesCountOnce_data();
    void aDeterministicModelsCopiesCountOnce();
    void drawsThatDifferAreNotCopies();
};

void TestAnswerCopies::aDeterministicModelsCopiesCountOnce_data()
{
    QTest::addColumn<double>("slope");
    QTest::addColumn<double>("shift");
    QTest::addColumn<quint64>("seed");
    QTest::newRow("steep, hard tasks") << 1.8 << 0.6 << quint64(3);
    QTest::newRow("shallow, easy tasks") << 0.8 << -0.4 << quint64(4);
}

void TestAnswerCopies::aDeterministicModelsCopiesCountOnce()
{
    QFETCH(double, slope);
    QFETCH(double, shift);
    QFETCH(quint64, seed);
    const World w{slope, {1.2, 0.4, -0.3}, shift, seed};
    // 200 tasks measured by four designs under three seeds; 2,000 others never seen.
    const auto fit = ModelCalibration::fit(asked(w, 0, 200, 4, 3), {}, {});
    for (int m = 0; m < 3; ++m) {
        const auto name = "m" + std::to_string(m);
        const auto& p = fit.models.at(name);
        const double skill = p.skills->at("facts");
        const double unseen = accuracyOf(w, m, 200, 2000);
        // Within the sampling error of 200 tasks (a standard error of at most 0.035).
        QVERIFY2(std::abs(skill - unseen) <= 0.07,
                 qPrintable(QString("%1: skill %2, unseen %3").arg(name.c_str()).arg(skill).arg(unseen)));
        // The interval is as wide as 200 tasks make it, not 2,400 answers.
        const auto [lo, hi] = p.skillsCi->at("facts");
        QVERIFY2(hi - lo >= 0.09, qPrintable(QString("%1: [%2, %3]").arg(name.c_str()).arg(lo).arg(hi)));
        QVERIFY2(lo <= skill && skill <= hi, qPrintable(QString("%1: [%2, %3]").arg(name.c_str()).arg(lo).arg(hi)));
        QCOMPARE(p.trials->at("facts"), int64_t(2400));
    }
}

// A model whose answers to a task differ between seeds is not deterministic:
// its seeds are independent draws and each counts (only same-seed copies merge).
void TestAnswerCopies::drawsThatDifferAreNotCopies()
{
    CalibrationSamples samples;
    for (int t = 0; t < 300; ++t) {
        for (int s = 0; s < 3; ++s) {
            for (int copy = 0; copy < 2; ++copy) { // two designs asking the same call: a copy
                Answer a;
                a.model = "m";
                a.domain = "facts";
                a.task = "set\nt" + std::to_string(t);
                a.seed = uint64_t(s);
                a.correct = R::unit(R::key({std::to_string(t), std::to_string(s)}, 9), 1) < 0.6;
                a.answer = a.correct ? "right" : "wrong";
                samples.answers.push_back(a);
                samples.calls.push_back({.model = a.model, .ok = true, .durationMs = 100});
            }
        }
    }
    const auto fit = ModelCalibration::fit(samples, {}, {});
    const auto [lo, hi] = fit.models.at("m").skillsCi->at("facts");
    // 900 independent answers (not 1,800, not 300): Wilson's width at p ≈ 0.6, n = 900, is about 0.064.
    QVERIFY2(hi - lo > 0.05 && hi - lo < 0.08, qPrintable(QString("[%1, %2]").arg(lo).arg(hi)));
}

QTEST_GUILESS_MAIN(TestAnswerCopies)
#include "tst_answercopies.moc"
