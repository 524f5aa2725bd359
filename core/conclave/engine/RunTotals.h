#pragma once

#include <cstdint>

namespace conclave {

// What a whole run added up to: one struct for the engine's result
// (RunResult), the run store's row (RunSummary) and the writer's end-of-run
// record (write_op::RunEnd), so a total added to one is carried by all three
// and copied between them in one assignment.
struct RunTotals {
    int64_t wallUs = 0;    // from the run's start to its end (or to now, while it runs)
    int64_t tokensIn = 0;  // every call attempt's prompt tokens
    int64_t tokensOut = 0; // every call attempt's completion tokens
    double costUsd = 0;    // every call attempt's cost
    int calls = 0;         // call attempts dispatched
    int64_t cpuUs = 0;     // the real CPU time the run's work used
};

} // namespace conclave
