#pragma once

#include "conclave/local/CallResponder.h"

namespace conclave {

// A simulated call conditioned on lasting longer than `servedMs` (a what-if's
// call that was cut short when recorded, docs/whatif.md): the responder's
// call under its own draws when it lasts longer, else under fresh draws
// ("ROLE|longer K", K = 1, 2, …) until one does — rejection sampling from the
// model's latency distribution given that it exceeds `servedMs`. When none of
// kTries does (the served time is beyond what the profile gives), the last
// draw's reply ends right at `servedMs`.
struct LongerCall {
    static constexpr int kTries = 256;
    static SimulatedCall draw(const CallResponder& responder, const ModelRequest& request, double servedMs);
};

} // namespace conclave
