#pragma once

#include "conclave/engine/RunClock.h"
#include "conclave/engine/RunPlan.h"

#include <optional>
#include <string>
#include <string_view>

namespace conclave {

// What a caller asks for: `Auto` is virtual for a team that only calls
// local-moe and recorded backends, real otherwise.
enum class ClockRequest { Auto, Real, Virtual };

std::optional<ClockRequest> clockRequestFromString(std::string_view text);
std::string_view toString(ClockRequest request);

struct ClockChoice {
    ClockKind kind = ClockKind::Real;
    std::string error; // why the request cannot be met; kind is meaningless then
};

// The one rule for which clock a run gets: the virtual clock only when every
// backend its nodes can call is simulated, local-moe or recorded (an endpoint
// answers in real time, whatever the run's clock says). `allReplayed`: every
// call is answered from a recording, whatever its backend's kind
// (single-run mode), so the virtual clock is possible.
ClockChoice chooseClock(const RunPlan& plan, ClockRequest request, bool allReplayed = false);

} // namespace conclave
