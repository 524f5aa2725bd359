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
};

} // namespace conclave
