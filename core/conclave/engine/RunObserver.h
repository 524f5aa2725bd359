#pragma once

#include "conclave/engine/RunResult.h"
#include "conclave/engine/Span.h"

#include <cstdint>
#include <string_view>

namespace conclave {

// Receives a run's events as they happen. Calls come from engine threads, one
// at a time per run and in the order the engine produced them; an observer
// must be quick and must not call back into the run. The run store, the
// studio's live view and the CLI's progress line are all observers.
class RunObserver {
public:
    virtual ~RunObserver() = default;

    virtual void runStarted(std::string_view /*runInput*/, uint64_t /*seed*/, ClockKind /*clock*/) {}
    virtual void nodeQueued(const NodeId& /*node*/, int64_t /*atUs*/) {}
    virtual void spanStarted(const Span& /*span*/) {}
    // A piece of streamed text for a call attempt (span) of a node.
    virtual void nodeToken(const NodeId& /*node*/, SpanId /*span*/, std::string_view /*text*/, int64_t /*atUs*/) {}
    // An ok call attempt's whole reply, streamed or not, just before its span finishes.
    virtual void attemptReplied(const NodeId& /*node*/, SpanId /*span*/, std::string_view /*text*/) {}
    virtual void spanFinished(const Span& /*span*/) {}
    virtual void nodeFinished(const NodeId& /*node*/, const NodeResult& /*result*/, int64_t /*atUs*/) {}
    virtual void runFinished(const RunResult& /*result*/) {}
};

} // namespace conclave
