#pragma once

#include "conclave/engine/RunResult.h"
#include "conclave/model/Team.h"

#include <vector>

namespace conclave {

// The critical path of a finished run, from its spans and the team's edges:
// starting at the output, step back each time to the input that finished
// last before the node started (the one it was waiting for), until the input
// node. Its length is the sum of those nodes' own durations, so wall time
// minus the length is time lost to scheduling and waiting.
class CriticalPathFinder {
public:
    static CriticalPath find(const Team& team, const std::vector<Span>& spans);
};

} // namespace conclave
