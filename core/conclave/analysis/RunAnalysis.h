#pragma once

#include "conclave/analysis/ParallelismAudit.h"
#include "conclave/store/StoredRun.h"

#include <cstdint>
#include <string>
#include <vector>

namespace conclave {

struct Team;

// One agent (node) of a run, from its spans.
struct AgentStats {
    NodeId node;
    std::string kind;    // the node kind, when the team is known
    int calls = 0;       // call attempts
    int64_t wallUs = 0;  // from the node's first span start to its last span end
    int64_t busyUs = 0;  // time inside model calls (the union of its attempts), else inside its node spans
    int64_t ttftUs = -1; // time to first token of its first attempt that streamed
    int64_t tokensIn = 0;
    int64_t tokensOut = 0;
    double costUsd = 0;
    Status status = Status::Queued;
};

// What `runs show` and the studio's run view say about a run: per-agent rows,
// the critical path, the parallelism achieved, and parallel branches that ran
// serially. Pure computation over a stored run; no I/O. A span that never
// ended counts up to the run's wall time.
//   agent wall    = last span end − first span start (its node spans, else its attempts)
//   agent busy    = length of the union of its attempts (else of its node spans)
//   parallelism   = Σ agent busy / run wall (0 when the wall is 0)
//   critical path = as the run recorded it (CriticalPathFinder, when it finished)
//   serialised    = pairs that could have overlapped and did not, with why (ParallelismAudit)
class RunAnalysis {
public:
    static RunAnalysis of(const StoredRun& run);

    std::vector<AgentStats> agents; // in team order (then any node the team does not name)
    std::vector<NodeId> criticalPath;
    int64_t criticalPathUs = 0;
    int64_t wallUs = 0;
    double parallelism = 0; // sum of agents' busy time / wall time
    std::vector<SerialisedBranches> serialised;
};

} // namespace conclave
