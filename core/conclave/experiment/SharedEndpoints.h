#pragma once

#include "conclave/model/Team.h"

#include <vector>

namespace conclave {

// Backends of several teams that name the same endpoint (base URL) share its
// limits: each gets the smallest max_concurrency and requests_per_minute any
// of them sets, so the strictest team's limit holds for all their runs.
void shareEndpointLimits(std::vector<Team>& teams);

} // namespace conclave
