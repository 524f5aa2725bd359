#pragma once

#include "conclave/engine/Span.h"
#include "conclave/model/NodeKind.h"

#include <optional>
#include <string>
#include <vector>

namespace conclave {

// One input of an aggregator, in the order it arrived.
struct Vote {
    std::string source;
    NodeResult result;
    double weight = 1;
};

// The pure decisions of an aggregator: when it may stop early, and what it
// concludes from the votes it has. No timing, no threads.
class AggregatorLogic {
public:
    struct Rules {
        AggregatorStrategy strategy = AggregatorStrategy::Majority;
        std::optional<int64_t> quorum;
        std::optional<double> minConfidence;
    };

    // True when the votes so far settle the matter (first, quorum, min_confidence).
    static bool canStopEarly(const Rules& rules, const std::vector<Vote>& votes);

    // The conclusion from the ok votes (all but synthesize, which needs a model).
    static NodeResult conclude(const Rules& rules, const std::vector<Vote>& votes);

    // Votes per normalized answer, the winner first: count (or weight), then
    // summed confidence, then arrival order.
    struct Tally {
        std::string answer;
        double score = 0;
        int count = 0;
        double confidence = 0;
        size_t firstIndex = 0;
    };
    static std::vector<Tally> tally(const std::vector<Vote>& votes, bool weighted);

    // A synthesize aggregator's agreement skip (skip_when_agree): the votes
    // settle the answer without a model call when the largest group of ok
    // votes with one normalized answer (tally's winner, unweighted) has at
    // least two votes and holds at least `fraction` of the ok votes (within
    // 1e-9, as a meeting's consensus), and, when minConfidence is set, that
    // group's mean confidence is at least it. Votes not ok (failed, timed
    // out, cancelled) count nowhere.
    struct Agreement {
        std::string answer;
        std::vector<size_t> votes; // indices of the agreeing votes, in the order given
        size_t okVotes = 0;        // the ok votes the fraction was taken of
        double confidence = 0;     // the agreeing votes' mean confidence
    };
    static std::optional<Agreement> agreement(double fraction, std::optional<double> minConfidence,
                                              const std::vector<Vote>& votes);
};

} // namespace conclave
