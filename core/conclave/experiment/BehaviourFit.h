#pragma once

#include "conclave/experiment/CalibrationSamples.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace conclave {

// The fits of how one model behaves beyond being right (docs/calibration.md):
// the confidence it states, how it synthesizes, how its latency grows with
// load. Each is unset when the data cannot tell (then the simulator's
// built-in default stays, reported "not measured"). Pure, never throws.
class BehaviourFit {
public:
    // Stated confidence, right and wrong apart: the mean and the sample
    // standard deviation (n − 1) of the confidence the engine read from each
    // scored answer. Needs 2 right and 2 wrong answers. With at least
    // kQuantileAnswers on a side, also that side's quantiles at shares 0,
    // 0.05, …, 1 (Quantile::of): a cascade's threshold cuts the distribution
    // where a normal's shape may not be the data's.
    static constexpr int64_t kQuantileAnswers = 20;
    static constexpr size_t kQuantiles = 21;
    struct Confidence {
        double rightMean = 0, rightSd = 0;
        double wrongMean = 0, wrongSd = 0;
        int64_t right = 0, wrong = 0;
        std::vector<double> rightQuantiles, wrongQuantiles; // empty with fewer answers
    };
    static std::optional<Confidence> confidence(const std::vector<const CalibrationSamples::Answer*>& answers);

    // A synthesizer: p_k = its right answers / its calls when k of its
    // candidates were right, for k = 0 … the most seen (a k never seen takes
    // the entry below it); self_answer = its wrong answers that were none of
    // the candidates' / its wrong answers (0 when it was never wrong).
    struct Synthesis {
        std::vector<double> pRightGivenRight;
        std::vector<int64_t> calls; // per k
        double selfAnswer = 0;
        int64_t wrong = 0;
    };
    static std::optional<Synthesis> synthesis(const std::vector<const CalibrationSamples::Synthesis*>& calls);

    // A meeting member's conformity: with chance c it takes the most common
    // answer it is shown, else it answers on its own, right with p_own (its
    // fitted curve at the task's difficulty). c in [0, 1] maximises
    //     Σ log(c·[the most common answer shown is right] + (1 − c)·p_own)
    // over its turns (as the simulator's rule, the likelihood of each turn's
    // being right or wrong), by Brent's method (Boost.Math). Needs `minTurns`
    // turns, at least one whose most common answer shown differs in being right
    // from a sure own answer (else every c fits alike).
    struct Turn {
        bool pluralityRight = false;
        bool correct = false;
        double pOwn = 0;
    };
    struct Conformity {
        double share = 0;
        int64_t turns = 0;
    };
    static std::optional<Conformity> conformity(const std::vector<Turn>& turns, int64_t minTurns);

    // Latency under load: a successful call with o output tokens admitted
    // with k calls in flight on its endpoint (itself included) takes
    //     d = (c0 + c1·o)·(1 + s·(k − 1))
    // For each s, c0 and c1 are the least squares of d/(1 + s(k − 1)) on
    // (1, o); s in [0, 4] minimises the squared relative residuals
    // Σ((d − d̂)/d̂)², found by Brent's method (Boost.Math). Needs calls at two
    // load levels or more, at least `minCalls` in all.
    struct Load {
        double slope = 0;
        int64_t calls = 0;
        int64_t lowest = 0, highest = 0; // the inflight counts seen
    };
    static std::optional<Load> load(const std::vector<const CalibrationSamples::Call*>& calls, int64_t minCalls);
    // 1 + slope·(inflight − 1): what a call's times are divided by to read them unloaded.
    static double factor(double slope, int64_t inflight);
};

} // namespace conclave
