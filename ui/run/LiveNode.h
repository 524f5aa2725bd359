#pragma once

#include "conclave/engine/Span.h"

#include <QtGlobal>

#include <cstdint>
#include <optional>
#include <string>

namespace conclave::ui {

// What the studio knows about one node of the run in progress, built from the
// events RunEventAdapter delivers.
struct LiveNode {
    Status status = Status::Queued;
    int64_t startedUs = -1;  // engine time of its node span's start
    int64_t finishedUs = -1; // engine time it settled
    qint64 startedAtMs = -1; // GUI clock when its start arrived, for the running time shown
    std::string text;        // streamed text so far (the result's text once it settled)
    std::optional<NodeResult> result;
};

} // namespace conclave::ui
