#pragma once

#include "conclave/engine/RunClock.h"

#include <cstdint>
#include <string>

namespace conclave::cli {

// "clock: virtual (simulated time), CPU 0.41 ms": which clock a run lived in
// and the real CPU time its work used, as `run` and `runs show` print it.
std::string clockLine(ClockKind clock, int64_t cpuUs);

} // namespace conclave::cli
