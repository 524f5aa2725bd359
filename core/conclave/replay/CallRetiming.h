#pragma once

#include "conclave/engine/ModelBackend.h"

#include <cstdint>
#include <functional>

namespace conclave {

// A replayed call's times, counted from its admission: its first token and
// its end, in microseconds (-1: none came).
struct CallTimes {
    int64_t firstTokenUs = -1;
    int64_t doneUs = -1;
};

// How a replay changes a recorded call's times (the what-if's speed-ups,
// docs/whatif.md): given the request and the times recorded for it, the
// times it replays with. Unset: as recorded. A call cut short when recorded
// is asked with the times its continuation (CutShortContinuation) gives; with
// none it hangs as recorded, and the run's own rules end it.
using CallRetiming = std::function<CallTimes(const ModelRequest&, CallTimes)>;

} // namespace conclave
