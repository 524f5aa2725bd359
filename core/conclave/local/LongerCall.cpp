#include "conclave/local/LongerCall.h"

#include <algorithm>

namespace conclave {

SimulatedCall LongerCall::draw(const CallResponder& responder, const ModelRequest& request, double servedMs)
{
    const std::string role = request.drawKey();
    SimulatedCall call = responder.respond(request);
    for (int k = 1; k < kTries && call.totalMs <= servedMs; ++k) {
        ModelRequest again = request;
        again.draw = role + "|longer " + std::to_string(k);
        call = responder.respond(again);
    }
    if (call.totalMs <= servedMs) {
        call.totalMs = servedMs;
        call.reply.plannedMs = servedMs;
    }
    call.ttftMs = std::min(call.ttftMs, call.totalMs);
    return call;
}

} // namespace conclave
