#pragma once

#include "conclave/engine/ModelBackend.h"
#include "conclave/engine/ReplyParser.h"
#include "conclave/engine/RunClock.h"
#include "conclave/engine/Span.h"
#include "conclave/model/DefaultValues.h"

#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

namespace conclave {

class Run;

// What one logical call asks for: the request, where it goes, and how hard to try.
struct CallSpec {
    NodeId node;          // the agent the call is for (a member, in a meeting)
    SpanId parent = 0;    // the span its attempts hang under
    int round = 0;
    ModelBackend* backend = nullptr;
    ModelRequest request;  // model and prompt; attempt is filled in per try
    std::optional<std::string> fallbackModel;
    int64_t timeoutMs = defaults::kTimeoutMs;
    int retries = defaults::kRetries;
};

struct CallOutcome {
    Status status = Status::Failed;
    std::string text;
    ParsedReply parsed;  // the text's answer and confidence, read before taking the run's lock
    int64_t tokensIn = 0;
    int64_t tokensOut = 0;
    double costUsd = 0;
    std::string error;
    int64_t endUs = -1;  // when the final reply arrived (before any wait for the run's lock)
};

// One logical model call: attempts with a timeout each, retries with
// exponential backoff and jitter (or the server's Retry-After), then the
// fallback model, then failure. Each attempt is a span. Its methods lock the
// run themselves, except cancel(), which expects the run's lock held; `done`
// is called exactly once, with the run's lock held.
class CallRunner : public std::enable_shared_from_this<CallRunner> {
public:
    CallRunner(std::shared_ptr<Run> run, CallSpec spec, std::function<void(CallOutcome)> done);

    // Starts the first attempt. Call without the run's lock.
    void start();
    // The same in two halves, for a caller that holds the run's lock: prepare
    // under it, release it, then launch what it prepared.
    struct Launch {
        uint64_t token = 0;
        ModelRequest request;
    };
    std::optional<Launch> prepareLocked();
    void launch(std::optional<Launch> launch);
    // Stops the call; `done` follows at once with this status. Lock held.
    void cancel(Status status, const std::string& why);

    // The retry delay before attempt `attempt + 1`, in team milliseconds.
    static double backoffMs(int attempt, double jitterUnit, std::optional<int64_t> retryAfterMs);

private:
    // Clock time for a delay in team milliseconds, scaled as the call's backend is.
    int64_t afterOnBackend(double teamMs) const;
    void attempt();
    // Bookkeeping of an attempt, lock held; false when no attempt is to be made.
    std::optional<Launch> beginAttemptLocked();
    void abandonLocked();
    // Records the backend's id of attempt `token`; false when that attempt was
    // already abandoned or superseded, and the caller must cancel the id.
    bool recordCallId(uint64_t token, CallId id);
    void onToken(uint64_t token, std::string_view chunk);
    void onReply(uint64_t token, ModelReply reply, int64_t arrivedUs);
    void onTimeout(uint64_t token);
    void afterFailure(Status status, const std::string& error, bool retryable, std::optional<int64_t> retryAfterMs);
    void finish(Status status, std::string text, std::string error, int64_t endUs = -1);

    std::shared_ptr<Run> m_run;
    CallSpec m_spec;
    std::function<void(CallOutcome)> m_done;
    std::string m_model;
    bool m_usingFallback = false;
    int m_triesOnModel = 0;
    int m_attempt = 0;
    uint64_t m_token = 0;
    bool m_inFlight = false;
    bool m_finished = false;
    // The backend's id of the attempt in flight, learnt by launch() without the
    // run's lock. The id and the attempt it belongs to are kept together under
    // m_idMutex (taken after the run's lock, never before it), so a late launch
    // of attempt N can never overwrite the id of attempt N+1: whoever comes
    // second of "id known" and "attempt abandoned or superseded" cancels it.
    std::mutex m_idMutex;
    uint64_t m_idToken = 0;   // the attempt whose id launch() may record
    uint64_t m_abandoned = 0; // the latest attempt given up (timeout, cancel)
    CallId m_callId = 0;      // the backend's id of attempt m_idToken, 0 until known
    SpanId m_span = 0;
    TimerId m_timeoutTimer = 0;
    TimerId m_backoffTimer = 0;
    CallOutcome m_total;
    size_t m_trackSlot = 0;  // where the run keeps it while in flight (the run's lock guards it)

    friend class Run;
};

} // namespace conclave
