#pragma once

#include "conclave/engine/Span.h"
#include "conclave/model/Team.h"

#include <cstdint>
#include <string>
#include <vector>

namespace conclave {

// Two nodes that could have run at the same time and did not: they ran one
// after another, and `why` says what held the later one back.
struct SerialisedBranches {
    std::vector<NodeId> nodes; // in the order they ran
    std::string why;           // "backend \"local\" allows 1 call at a time", or why no limit explains it
};

// The parallelism audit of a run: the pairs of nodes that could have
// overlapped and did not. A pair is flagged when
//   - neither reaches the other over ordinary edges and from a coordinator to
//     its members (TeamGraph::reachableFrom): no data waits on the other;
//   - they are not both members of a meeting that speaks in turn
//     (round_robin, cascade, adaptive): taking turns is that meeting's design;
//   - neither is the input nor the output;
//   - both were ready during a common interval of at least kMinCommonUs: a
//     node is ready from when all its inputs settled (the last end of its
//     inputs' node spans before it started; a member of a meeting that
//     speaks in parallel, from the start of the round that asked it; a member
//     of one that speaks in turn, from its own start) until it ends;
//   - and no execution of one overlapped an execution of the other (spans of
//     no length say nothing and are left out).
// Why: a backend whose max_concurrency both call through was full while the
// later one waited (and "a retry held it" when the earlier one retried);
// else no backend limit explains it, which points at the engine's workers.
class ParallelismAudit {
public:
    static constexpr int64_t kMinCommonUs = 1000;

    // `runEndUs` ends the spans that never ended (an interrupted run).
    static std::vector<SerialisedBranches> find(const Team& team, const std::vector<Span>& spans, int64_t runEndUs);
};

} // namespace conclave
