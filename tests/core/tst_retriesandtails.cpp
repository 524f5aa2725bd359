// What calibration reads from retries, timeouts and stated confidence, and
// what the simulator does with it (docs/calibration.md, docs/simulator.md):
// - latency and length come from first attempts only: an endpoint that
//   answers one request the same way every time times a retry out again, and
//   counting those retries as fresh samples made lab-e's slow model look 12 %
//   longer (cost predicted 1.18–1.29× the measured);
// - `retry_repeat` = (f − q) / (1 − q) from how often retries after a timeout
//   time out again; the simulator answers such a retry as the attempt before;
// - censoring that hides the p95 is extrapolated on the lognormal through the
//   median and the highest point the Kaplan–Meier estimate reaches;
// - stated confidence keeps its quantiles, which the simulator draws from (a
//   cascade's threshold cuts where a normal's shape may not be the data's).
#include <QtTest>

#include "support/ResponderFixture.h"
#include "conclave/analysis/Quantile.h"
#include "conclave/engine/ReplyParser.h"
#include "conclave/experiment/BehaviourFit.h"
#include "conclave/experiment/ModelCalibration.h"

#include <cmath>

using namespace conclave;
using namespace testsupport;

namespace {

using Call = CalibrationSamples::Call;

// `calls` first attempts of 1,000 ms, every `every`-th timed out at 3,000 ms
// and retried: the retry times out again when `repeats`, else takes 1,000 ms.
CalibrationSamples retried(int calls, int every, bool repeats)
{
    CalibrationSamples samples;
    for (int i = 0; i < calls; ++i) {
        const bool timesOut = i % every == 0;
        samples.calls.push_back({.model = "m",
                                 .ok = !timesOut,
                                 .timedOut = timesOut,
                                 .durationMs = timesOut ? 3000.0 : 1000.0 + i % 7,
                                 .ttftMs = timesOut ? -1.0 : 200.0 + i % 3,
                                 .tokensOut = timesOut ? 0 : 100 + i % 5,
                                 .attempt = 1});
        if (timesOut)
            samples.calls.push_back({.model = "m",
                                     .ok = !repeats,
                                     .timedOut = repeats,
                                     .durationMs = repeats ? 3000.0 : 1000.0,
                                     .ttftMs = -1,
                                     .tokensOut = repeats ? 0 : 100,
                                     .attempt = 2,
                                     .afterTimeout = true});
    }
    return samples;
}

} // namespace

class TestRetriesAndTails : public QObject, ResponderFixture {
    Q_OBJECT

private slots:
    void initTestCase() { QVERIFY(load()); }

    void kaplanMeierSteps()
    {
        // 1, 2, 2 exact; 3 censored; 4 exact: S = 4/5, 2/5 (2 of 4 at 2), then 0 at 4 (1 at risk).
        const auto steps = Quantile::kaplanMeier({{2, false}, {4, false}, {1, false}, {3, true}, {2, false}});
        QCOMPARE(steps.size(), size_t(3));
        QCOMPARE(steps[0].value, 1.0);
        QCOMPARE(steps[0].share, 0.2);
        QCOMPARE(steps[1].value, 2.0);
        QVERIFY(std::abs(steps[1].share - 0.6) < 1e-12);
        QCOMPARE(steps[2].value, 4.0);
        QCOMPARE(steps[2].share, 1.0);
        QCOMPARE(Quantile::ofCensored({{2, false}, {4, false}, {1, false}, {3, true}, {2, false}}, 0.5), 2.0);
    }

    void aHiddenTailIsExtrapolated()
    {
        // 80 exact values 1..80, 20 censored at 90: the estimate stops at 80 %.
        std::vector<Quantile::Observed> values;
        for (int i = 1; i <= 80; ++i)
            values.push_back({double(i), false});
        for (int i = 0; i < 20; ++i)
            values.push_back({90, true});
        const auto d = ModelCalibration::distribution(values);
        QCOMPARE(d.median, 50.0);
        // σ = ln(80 / 50) / Φ⁻¹(0.8); p95 = 50 · e^{1.645σ}
        const double sigma = std::log(80.0 / 50.0) / 0.8416212335729143;
        QVERIFY2(std::abs(d.p95 - 50 * std::exp(1.6448536269514722 * sigma)) < 1e-6, std::to_string(d.p95).c_str());
        QVERIFY(std::abs(d.p95 - 125.29) < 0.01);
    }

    void retriesThatTimeOutAgainRepeat()
    {
        const auto fit = ModelCalibration::fit(retried(200, 10, true), {}, {});
        const auto& p = fit.models.at("m");
        QVERIFY(p.retryRepeat);
        QCOMPARE(*p.retryRepeat, 1.0);
        // Read from the 200 first attempts: 20 censored at 3,000 ms, not 40.
        QCOMPARE(p.ttftMs->median, 201.0);
        QVERIFY(fit.warnings.end() != std::find(fit.warnings.begin(), fit.warnings.end(),
                                                "m: 20 of 200 calls timed out; its latency and length beyond the "
                                                "timeout are extrapolated"));
        QCOMPARE(p.failureRate, std::optional<double>(0.0));
        QVERIFY(std::find(p.fitted->begin(), p.fitted->end(), "retry_repeat") != p.fitted->end());
        QVERIFY(fit.warnings.end() != std::find(fit.warnings.begin(), fit.warnings.end(),
                                                "m: only 20 retries after a timeout (fewer than 30); its retry "
                                                "repeat is uncertain"));
    }

    void freshRetriesDoNotRepeat()
    {
        const auto p = ModelCalibration::fit(retried(200, 10, false), {}, {}).models.at("m");
        QCOMPARE(p.retryRepeat, std::optional<double>(0.0));
    }

    void tooFewRetriesAreNotMeasured()
    {
        const auto p = ModelCalibration::fit(retried(40, 10, true), {}, {}).models.at("m");
        QVERIFY(!p.retryRepeat); // 4 retries, fewer than kMinRetries
        const auto kept = ModelCalibration::defaultsKept(p);
        QVERIFY(std::find(kept.begin(), kept.end(), "retry_repeat") != kept.end());
    }

    void confidenceKeepsItsQuantiles()
    {
        std::vector<CalibrationSamples::Answer> answers(30);
        std::vector<const CalibrationSamples::Answer*> pointers;
        for (size_t i = 0; i < answers.size(); ++i) {
            answers[i].correct = i < 20;
            answers[i].confidence = i < 20 ? 0.5 + 0.02 * double(i) : 0.3;
            pointers.push_back(&answers[i]);
        }
        const auto c = BehaviourFit::confidence(pointers);
        QVERIFY(c);
        QCOMPARE(c->rightQuantiles.size(), BehaviourFit::kQuantiles);
        QCOMPARE(c->rightQuantiles.front(), 0.5);
        QVERIFY(std::abs(c->rightQuantiles[10] - 0.69) < 1e-12); // the median of 0.50 … 0.88
        QVERIFY(std::abs(c->rightQuantiles.back() - 0.88) < 1e-12);
        QVERIFY(c->wrongQuantiles.empty()); // 10 wrong answers, fewer than kQuantileAnswers
    }

    void theSimulatorRepeatsARetry()
    {
        auto repeating = jittery(0.5);
        repeating.retryRepeat = 1;
        auto half = jittery(0.5);
        half.retryRepeat = 0.5;
        auto failing = jittery(0.5);
        failing.retryRepeat = 1;
        failing.failureRate = 0.5;
        LocalResponder responder({{"repeating", repeating}, {"fresh", jittery(0.5)}, {"half", half}, {"failing", failing}},
                                 m_gate, m_tasks, 7);
        int same = 0, freshSame = 0, halfSame = 0, failedThenOk = 0;
        const auto& tasks = m_tasks->tasks();
        for (size_t t = 0; t < 200; ++t) {
            const auto& prompt = tasks[t].prompt;
            const auto a = responder.respond(ask("repeating", prompt, 1));
            const auto b = responder.respond(ask("repeating", prompt, 2));
            same += a.reply.text == b.reply.text && a.reply.tokensOut == b.reply.tokensOut && a.totalMs == b.totalMs;
            const auto f1 = responder.respond(ask("fresh", prompt, 1));
            const auto f2 = responder.respond(ask("fresh", prompt, 2));
            freshSame += f1.reply.tokensOut == f2.reply.tokensOut && f1.totalMs == f2.totalMs;
            const auto h1 = responder.respond(ask("half", prompt, 1));
            const auto h2 = responder.respond(ask("half", prompt, 2));
            halfSame += h1.reply.tokensOut == h2.reply.tokensOut && h1.totalMs == h2.totalMs;
            failedThenOk += !responder.respond(ask("failing", prompt, 1)).reply.ok &&
                            responder.respond(ask("failing", prompt, 2)).reply.ok;
        }
        QCOMPARE(same, 200);
        QCOMPARE(freshSame, 0);
        QVERIFY2(halfSame > 70 && halfSame < 130, std::to_string(halfSame).c_str());
        QVERIFY2(failedThenOk > 25, std::to_string(failedThenOk).c_str()); // a server error is drawn anew
    }

    void theSimulatorDrawsConfidenceFromQuantiles()
    {
        auto sure = exact(1);
        sure.confidence.right = {0.5, 0.3, {0.9, 0.9}};
        auto spread = exact(1);
        spread.confidence.right = {0.5, 0.3, {0.2, 0.3, 0.6}};
        LocalResponder responder({{"sure", sure}, {"spread", spread}}, m_gate, m_tasks, 7);
        double low = 1, high = 0;
        for (size_t t = 0; t < 100; ++t) {
            const auto& prompt = m_tasks->tasks()[t].prompt;
            QCOMPARE(ReplyParser::parse(responder.respond(ask("sure", prompt)).reply.text).confidence, 0.9);
            const double c = ReplyParser::parse(responder.respond(ask("spread", prompt)).reply.text).confidence;
            low = std::min(low, c);
            high = std::max(high, c);
        }
        QVERIFY2(low >= 0.2 && low < 0.25, std::to_string(low).c_str());
        QVERIFY2(high <= 0.6 && high > 0.5, std::to_string(high).c_str());
    }
};

QTEST_GUILESS_MAIN(TestRetriesAndTails)
#include "tst_retriesandtails.moc"
