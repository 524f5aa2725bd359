#pragma once

#include "conclave/engine/RunClock.h"
#include "conclave/engine/RunPlan.h"

#include <optional>
#include <string>
#include <string_view>

namespace conclave {

// What a caller asks for: `Auto` is virtual for a team that only calls
// local-moe backends, real otherwise.
enum class ClockRequest { Auto, Real, Virtual };

std::optional<ClockRequest> clockRequestFromString(std::string_view text);
std::string_view toString(ClockRequest request);

struct ClockChoice {
    ClockKind kind = ClockKind::Real;
    std::string error; // why the request cannot be met; kind is meaningless then
};

// The one rule for which clock a run gets: the virtual clock only when every
// backend its nodes can call is local-moe (an endpoint answers in real time,
// whatever the run's clock says).
ClockChoice chooseClock(const RunPlan& plan, ClockRequest request);

} // namespace conclave
