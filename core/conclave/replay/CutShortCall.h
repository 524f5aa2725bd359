#pragma once

#include "conclave/engine/ModelBackend.h"

#include <cstdint>
#include <functional>
#include <string>

namespace conclave {

// What a call cut short when recorded (cancelled, timed out) would have
// done had it gone on (docs/whatif.md): a simulated reply and its times from
// admission, its end after the recorded service time.
struct ContinuedCall {
    ModelReply reply;
    int64_t firstTokenUs = -1; // -1: no first token of its own
    int64_t doneUs = 0;
    std::string firstChunk;
};

// Given the request and how long the recorded attempt was served before it
// was cut short (µs), the call as the simulator would finish it. Unset: a
// cut-short call hangs as recorded, and the replaying run's rules end it.
using CutShortContinuation = std::function<ContinuedCall(const ModelRequest&, int64_t servedUs)>;

} // namespace conclave
