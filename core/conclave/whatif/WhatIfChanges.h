#pragma once

#include "conclave/model/StrongId.h"
#include "conclave/whatif/SpeedChanges.h"

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

namespace conclave {

// Everything a what-if changes: nodes' latencies (SpeedChanges) and
// backends' `max_concurrency` (the queue re-simulated from the run's calls)
// and nodes' models.
struct WhatIfChanges {
    SpeedChanges speeds;
    std::map<BackendName, int64_t> maxConcurrency;
    // Nodes' `model` swapped: their calls are no longer the run's, so the simulator answers them (`simulated`).
    std::map<NodeId, std::string> models;

    // "NAME.max_concurrency=N" (N ≥ 1), once per backend; the backend is what precedes the last '.'.
    bool addBackend(std::string_view assignment, std::string& error);
    // "NODE=MODEL" (the node is everything before the last '='), once per node.
    bool addModel(std::string_view assignment, std::string& error);
    bool empty() const { return speeds.empty() && maxConcurrency.empty() && models.empty(); }
};

} // namespace conclave
