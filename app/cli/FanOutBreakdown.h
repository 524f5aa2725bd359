#pragma once

#include "conclave/engine/RunResult.h"

#include <string>

namespace conclave::cli {

// Where a fan-out run's time went: starting every expert after the router,
// the replies (the last expert's end), the aggregator's own work and the rest.
std::string fanOutBreakdown(const RunResult& result);

} // namespace conclave::cli
