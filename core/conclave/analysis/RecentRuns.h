#pragma once

#include "conclave/store/StoredRun.h"

#include <string>
#include <vector>

namespace conclave {

class RunQueries;

// The runs a team's distributions are drawn over: its last finished runs.
class RecentRuns {
public:
    // The last `n` finished (not running) runs of `team`, newest first; empty
    // with `error` set when the store cannot be read.
    static std::vector<StoredRun> lastFinished(RunQueries& queries, const std::string& team, int n, std::string& error);
};

} // namespace conclave
