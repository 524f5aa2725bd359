#pragma once

#include "conclave/engine/RunClock.h"
#include "conclave/engine/RunTotals.h"
#include "conclave/engine/Span.h"

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace conclave {

// ok: the output has an answer and every agent that ran succeeded.
// partial: the output has an answer although some agent failed or timed out.
// failed: no answer reached the output. cancelled: stopped by the user.
// budget_exhausted: a budget stopped new calls; the output holds what was produced.
enum class RunStatus { Running, Ok, Partial, Failed, Cancelled, BudgetExhausted, Interrupted };

std::string_view toString(RunStatus status);
std::optional<RunStatus> runStatusFromString(std::string_view text);

struct CriticalPath {
    std::vector<NodeId> nodes;  // from the input to the output
    int64_t lengthUs = 0;       // the sum of those nodes' span durations
};

struct RunResult : RunTotals {
    RunStatus status = RunStatus::Running;
    NodeResult output;                    // the output node's result
    std::map<NodeId, NodeResult> results; // every node's result
    std::vector<Span> spans;              // in the order they started
    CriticalPath criticalPath;
    ClockKind clock = ClockKind::Real; // the time the run lived in
};

} // namespace conclave
