#pragma once

#include "conclave/engine/Span.h"

namespace conclave {

// How much a status matters when several are merged into one mark (a merged
// block of the timeline shows its most severe member). The ranks, lowest first:
//     queued 0 < skipped 1 < ok 2 < running 3 < cancelled 4
//            < budget_exhausted 5 < timeout 6 < failed 7
class StatusSeverity {
public:
    static int of(Status status);
    // The more severe of the two; `a` when they rank equal.
    static Status worse(Status a, Status b);
};

} // namespace conclave
