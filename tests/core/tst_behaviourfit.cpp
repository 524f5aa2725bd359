// <QtTest> first: moc 6.4 cannot parse <compare> when it is the first standard
// header it meets.
#include <QtTest>

#include "conclave/engine/DeterministicRandom.h"
#include "conclave/experiment/BehaviourFit.h"

#include <cmath>
#include <string>
#include <vector>

using namespace conclave;

namespace {

using Answer = CalibrationSamples::Answer;
using Call = CalibrationSamples::Call;
using Synthesis = CalibrationSamples::Synthesis;

template <typename T>
std::vector<const T*> pointers(const std::vector<T>& items)
{
    std::vector<const T*> out;
    for (const auto& item : items)
        out.push_back(&item);
    return out;
}

Answer answer(bool correct, double confidence)
{
    Answer a;
    a.model = "m";
    a.correct = correct;
    a.confidence = confidence;
    return a;
}

// Calls whose latency grows with load: (200 ms + 10 ms per token)·(1 + slope·(k − 1)), times a lognormal noise.
std::vector<Call> loadedCalls(double slope, double noise, int64_t maxInflight, uint64_t seed)
{
    std::vector<Call> out;
    for (int i = 0; i < 600; ++i) {
        const auto key = DeterministicRandom::key({"call", std::to_string(i)}, seed);
        Call c;
        c.model = "m";
        c.ok = true;
        c.tokensOut = 20 + int64_t(DeterministicRandom::unit(key, 1) * 200);
        c.inflight = 1 + int64_t(DeterministicRandom::unit(key, 2) * double(maxInflight));
        c.durationMs = (200.0 + 10.0 * double(c.tokensOut)) * (1 + slope * double(c.inflight - 1)) *
                       std::exp(noise * DeterministicRandom::normal(key, 3));
        out.push_back(c);
    }
    return out;
}

} // namespace

class TestBehaviourFit : public QObject {
    Q_OBJECT

private slots:
    void confidenceMoments();
    void confidenceNeedsBothSides();
    void synthesisTable();
    void loadSlope_data();
    void loadSlope();
    void loadNeedsTwoLevels();
};

void TestBehaviourFit::confidenceMoments()
{
    const std::vector<Answer> answers{answer(true, 0.9), answer(true, 0.7), answer(true, 0.8), answer(false, 0.6),
                                      answer(false, 0.8)};
    const auto fit = BehaviourFit::confidence(pointers(answers));
    QVERIFY(fit);
    QVERIFY(std::abs(fit->rightMean - 0.8) < 1e-12);
    QVERIFY(std::abs(fit->rightSd - 0.1) < 1e-12);
    QVERIFY(std::abs(fit->wrongMean - 0.7) < 1e-12);
    QVERIFY(std::abs(fit->wrongSd - std::sqrt(0.02)) < 1e-12);
    QCOMPARE(fit->right, int64_t(3));
    QCOMPARE(fit->wrong, int64_t(2));
}

void TestBehaviourFit::confidenceNeedsBothSides()
{
    const std::vector<Answer> answers{answer(true, 0.9), answer(true, 0.7), answer(false, 0.6)};
    QVERIFY(!BehaviourFit::confidence(pointers(answers)));
}

void TestBehaviourFit::synthesisTable()
{
    // k = 0: 2 calls, 0 right (one own answer); k = 1: none seen; k = 2: 4 calls, 3 right (the wrong one picked a candidate).
    const std::vector<Synthesis> calls{{"s", 3, 0, false, true},  {"s", 3, 0, false, false}, {"s", 3, 2, true, false},
                                       {"s", 3, 2, true, false},  {"s", 3, 2, true, false},  {"s", 3, 2, false, false}};
    const auto fit = BehaviourFit::synthesis(pointers(calls));
    QVERIFY(fit);
    QCOMPARE(fit->pRightGivenRight, (std::vector<double>{0.0, 0.0, 0.75}));
    QCOMPARE(fit->calls, (std::vector<int64_t>{2, 0, 4}));
    QCOMPARE(fit->wrong, int64_t(3));
    QVERIFY(std::abs(fit->selfAnswer - 1.0 / 3.0) < 1e-12);
    QVERIFY(!BehaviourFit::synthesis({}));
}

void TestBehaviourFit::loadSlope_data()
{
    QTest::addColumn<double>("slope");
    QTest::addColumn<double>("noise");
    QTest::addColumn<qint64>("maxInflight");
    QTest::newRow("no load effect") << 0.0 << 0.2 << qint64(6);
    QTest::newRow("19 % per call") << 0.19 << 0.2 << qint64(4);
    QTest::newRow("steep, noisy") << 0.6 << 0.4 << qint64(8);
}

void TestBehaviourFit::loadSlope()
{
    QFETCH(double, slope);
    QFETCH(double, noise);
    QFETCH(qint64, maxInflight);
    const auto calls = loadedCalls(slope, noise, maxInflight, 5);
    const auto fit = BehaviourFit::load(pointers(calls), 30);
    QVERIFY(fit);
    QCOMPARE(fit->calls, int64_t(600));
    QCOMPARE(fit->lowest, int64_t(1));
    QCOMPARE(fit->highest, int64_t(maxInflight));
    QVERIFY2(std::abs(fit->slope - slope) <= 0.05 + 0.1 * slope,
             qPrintable(QString("fitted %1, hidden %2").arg(fit->slope).arg(slope)));
}

void TestBehaviourFit::loadNeedsTwoLevels()
{
    auto calls = loadedCalls(0.3, 0.1, 1, 9);
    QVERIFY(!BehaviourFit::load(pointers(calls), 30)); // every call alone
    calls = loadedCalls(0.3, 0.1, 3, 9);
    calls.resize(20);
    QVERIFY(!BehaviourFit::load(pointers(calls), 30)); // too few
    QCOMPARE(BehaviourFit::factor(0.5, 3), 2.0);
    QCOMPARE(BehaviourFit::factor(0.5, 0), 1.0); // not known: read as alone
}

QTEST_GUILESS_MAIN(TestBehaviourFit)
#include "tst_behaviourfit.moc"
