#pragma once

#include "conclave/engine/Span.h"
#include "conclave/store/StoredRun.h"

#include <cstdint>
#include <optional>
#include <string>

namespace conclave {

// One stored call attempt with what replaying it needs: the run it was made
// in (its input and seed, the experiment trial it belongs to) and its reply.
struct StoredAttempt {
    std::string experimentId; // empty for a run that is no experiment's trial
    int design = 0;           // the trial's design (0 outside an experiment)
    std::string task;         // the trial's task id (empty outside an experiment)
    RunId runId;
    std::string input; // the run's input text
    uint64_t seed = 0; // the run's seed
    Span span;         // the attempt span, as stored
    // The whole reply text of an ok attempt (of another, what streamed before
    // it ended); unset when it was not recorded (nothing came, a store older
    // than schema 6, a text cut at the cap).
    std::optional<std::string> text;
};

} // namespace conclave
