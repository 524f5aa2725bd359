#pragma once

#include "conclave/engine/RunResult.h"
#include "conclave/engine/Span.h"

#include <cstdint>
#include <memory>
#include <string>

namespace conclave::ui {

// One engine event as the GUI thread receives it from RunEventAdapter: a copy
// of what the RunObserver call carried, so nothing refers back into the run.
struct RunEvent {
    enum class Type { RunStarted, NodeQueued, SpanStarted, Token, SpanFinished, NodeFinished, RunFinished };

    Type type = Type::RunStarted;
    NodeId node;
    Span span;                            // SpanStarted, SpanFinished
    SpanId spanId = 0;                    // Token
    std::string text;                     // Token (coalesced); RunStarted: the input
    NodeResult result;                    // NodeFinished
    int64_t atUs = 0;                     // NodeQueued, Token, NodeFinished
    uint64_t seed = 0;                    // RunStarted
    ClockKind clock = ClockKind::Real;    // RunStarted
    std::shared_ptr<const RunResult> run; // RunFinished
};

} // namespace conclave::ui
