#pragma once

#include "conclave/engine/AggregatorLogic.h"
#include "conclave/model/DefaultValues.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace conclave {

// The pure decisions of an adaptive meeting (MOSAIC's loop): after each round,
// whether the answers so far settle the matter, and if they do not, whether the
// next member may be asked. No timing, no threads, no model calls; the meeting
// (Meeting.cpp) asks, this decides, and its note says why.
//
// The rules, in the order they are tried after a round:
//   1. consensus: at least two of the members asked so far give the leading
//      answer, and they are at least `consensus` of those asked (one answer
//      agrees with nobody, so one member alone never makes a consensus);
//   2. threshold: the aggregated answer's confidence reaches `threshold`
//      (with a scorer, its score does: Standing::score);
//   3. no member left to ask;
//   4. `max_rounds` rounds were held;
//   5. the run's budget has already run out (any of its limits);
//   6. the budget guard: the next call's expected cost (its model's price x the
//      mean tokens of the meeting's calls so far), added to what the run has
//      spent, would pass `max_cost_usd`, or its expected tokens `max_tokens`;
//   otherwise the next member is asked.
// The leading answer and its confidence are AggregatorLogic's majority over
// every member's answer so far (votes in member edge order, so a tie goes to
// the higher summed confidence, then to the earlier member).
class AdaptiveLogic {
public:
    struct Rules {
        double consensus = defaults::kConsensus;
        double threshold = defaults::kThreshold;
        int64_t maxRounds = defaults::kMaxRounds;
    };

    // Where the meeting stands after a round.
    struct Standing {
        NodeResult result; // the majority (failed when no answer is ok)
        int agree = 0;     // answers equal to the leading one
        int asked = 0;     // members asked so far, whether they answered or not
        // With a scorer: the leading answer's score, read in place of its
        // confidence by rule 2 and in the notes ("score 0.41 < 0.70").
        std::optional<double> score;
    };
    // `votes`: one per member asked so far, in member edge order.
    static Standing stand(const std::vector<Vote>& votes);

    // The member that would be asked next, and what asking it would spend.
    struct NextCall {
        std::string member;         // empty: no member is left
        double expectedUsd = 0;     // its model's price x the meeting's mean tokens per call
        int64_t expectedTokens = 0; // the meeting's mean tokens (in + out) per call
        std::optional<double> maxCostUsd;
        double spentUsd = 0; // the whole run's, so far
        std::optional<int64_t> maxTokens;
        int64_t spentTokens = 0;
        std::string exhausted; // the run's budget already ran out: why ("budget exhausted: …")
    };

    struct Decision {
        bool stop = true;
        std::string note; // recorded on the round's span: "stop: …" or "ask m3: …"
    };
    static Decision decide(const Rules& rules, const Standing& standing, int round, const NextCall& next);
};

} // namespace conclave
