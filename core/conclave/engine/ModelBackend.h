#pragma once

#include "conclave/engine/CallPurpose.h"
#include "conclave/model/Backend.h"
#include "conclave/model/Node.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace conclave {

struct ModelRequest {
    std::string model;
    std::string system;
    std::string prompt;
    ModelParams params;
    std::string runInput;  // the run's input, so a simulator can tell which task it is about
    std::string salt;      // node and round, so a simulator's draws differ between callers
    // Which of the run's calls of this model this is, by the caller's role
    // rather than its id ("expert:0#2": the first expert on this model, round
    // 2), so the same call in two designs of the same shape draws the same luck
    // (common random numbers). Empty: the simulator keys on salt.
    std::string draw;
    int attempt = 1;
    // What the call is for and the inputs its prompt was built from, as data:
    // a simulator answers by these, never by the prompt's wording.
    CallPurpose purpose = CallPurpose::Answer;
    CallInputs inputs;

    // The key a simulator draws this call's luck by, and a recording is matched on.
    const std::string& drawKey() const { return draw.empty() ? salt : draw; }
};

struct ModelReply {
    bool ok = false;
    bool cancelled = false;
    std::string text;
    int64_t tokensIn = 0;
    int64_t tokensOut = 0;
    std::string error;                     // the server's own message on failure
    bool retryable = false;
    std::optional<int64_t> retryAfterMs;   // the server asked to wait this long
    double plannedMs = 0;                  // simulated latency (local backend)
    // When the endpoint admitted the call: how long after start() (the time it
    // queued behind max_concurrency or a rate limit), and the requests then in
    // flight on it, this one included. -1 and 0: the backend does not know.
    int64_t waitUs = -1;
    int64_t inflight = 0;
    // What the call cost, when the backend knows it better than costOf() (a
    // replayed call costs what it cost when recorded); unset: costOf().
    std::optional<double> costUsd;
    // A note for the attempt's span ("replayed: run R span S"); empty: none.
    std::string note;
};

struct CallCallbacks {
    std::function<void(std::string_view chunk)> onToken;  // streamed text; the first marks time to first token
    std::function<void(ModelReply reply)> onDone;         // exactly once per call
};

using CallId = uint64_t;

// Where model calls go. start() never blocks and never calls back on the
// caller's stack; callbacks arrive later on engine threads. After cancel(),
// onDone still comes exactly once (cancelled, unless the call had finished).
class ModelBackend {
public:
    virtual ~ModelBackend() = default;

    virtual CallId start(ModelRequest request, CallCallbacks callbacks) = 0;
    virtual void cancel(CallId call) = 0;

    // USD for a call's tokens; 0 for a model without a price.
    virtual double costOf(std::string_view model, int64_t tokensIn, int64_t tokensOut) const = 0;
    // The note for a call's attempt span while no reply has come: what a
    // timeout closes the span with (a replayed call that timed out when it was
    // recorded never answers, yet replays something). Empty: none.
    virtual std::string pendingNote(CallId call) const
    {
        (void)call;
        return {};
    }
    // The factor applied to simulated time on the real clock (1 for real
    // endpoints, and for every backend on a virtual clock); on the real clock
    // the engine scales a call's timeout and backoff by it too, so scaled-down
    // runs keep their shape.
    virtual double timeScale() const { return 1.0; }
};

} // namespace conclave
