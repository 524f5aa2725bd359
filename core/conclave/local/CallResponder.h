#pragma once

#include "conclave/engine/ModelBackend.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace conclave {

// What a simulated call will do: its reply, and when its first token and its
// end arrive, in milliseconds from the call's start on an idle backend.
// loadSlope: how much longer the call takes per other call in flight on its
// backend (LocalMoeBackend multiplies both times by 1 + loadSlope·(inflight − 1)).
struct SimulatedCall {
    ModelReply reply;
    double ttftMs = 0;
    double totalMs = 0;
    std::string firstChunk;
    double loadSlope = 0;
};

// Decides simulated calls for LocalMoeBackend, which only times them: the
// simulator (LocalResponder) or a world with rules of its own
// (GroundTruthWorld, for testing the simulator against something it is not).
// Implementations are immutable once shared: respond() is called from any thread.
class CallResponder {
public:
    virtual ~CallResponder() = default;
    virtual SimulatedCall respond(const ModelRequest& request) const = 0;
    // USD for a call of `model` with these token counts; 0 for a model it does not know.
    virtual double costOf(std::string_view model, int64_t tokensIn, int64_t tokensOut) const = 0;
};

} // namespace conclave
