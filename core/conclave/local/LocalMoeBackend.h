#pragma once

#include "conclave/engine/AdmissionQueue.h"
#include "conclave/engine/ModelBackend.h"
#include "conclave/engine/RunClock.h"
#include "conclave/local/CallResponder.h"

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

namespace conclave {

// A local-moe backend's load settings (its block's max_concurrency and background_inflight).
struct SimulatedLoad {
    int64_t maxConcurrency = 0;     // calls served at once; 0: no limit
    int64_t backgroundInflight = 0; // calls in flight that are not the run's
};

// The embedded simulator as a backend: decides each call at once with a
// CallResponder (the simulator's LocalResponder, or a test world), then
// delivers the first token and the reply from timers on the run's clock, the
// simulated latency later (times `time_scale` on the real clock; exactly, on a
// virtual one). No thread waits on a call.
// Load (docs/simulator.md): at most `maxConcurrency` calls are served at once
// (0: no limit), the rest wait their turn in order (AdmissionQueue), the wait
// in ModelReply::waitUs; a call's inflight is the run's own calls being
// served on this backend, itself included, plus `backgroundInflight`, fixed
// at its admission, and its times grow by 1 + loadSlope·(inflight − 1).
// Calls of other runs (other trials) are not seen: contention between trials
// is not simulated but through backgroundInflight.
// Made with make_shared: a timer that fires after the run (and this backend)
// is gone must find nothing, not freed memory.
class LocalMoeBackend : public ModelBackend, public std::enable_shared_from_this<LocalMoeBackend> {
public:
    LocalMoeBackend(std::shared_ptr<const CallResponder> responder, std::shared_ptr<RunClock> clock, double timeScale,
                    SimulatedLoad load = {});
    ~LocalMoeBackend() override;

    CallId start(ModelRequest request, CallCallbacks callbacks) override;
    void cancel(CallId call) override;
    double costOf(std::string_view model, int64_t tokensIn, int64_t tokensOut) const override;
    double timeScale() const override { return m_timeScale; }

private:
    enum class TokenState { Pending, Delivering, Delivered };
    struct Call {
        CallCallbacks callbacks;
        SimulatedCall decided;    // until admitted
        int64_t startUs = 0;
        bool admitted = false;
        TimerId tokenTimer = 0;
        TimerId doneTimer = 0;
        std::string firstChunk;                 // empty: no token to send
        TokenState token = TokenState::Pending;
        std::optional<ModelReply> parkedReply;  // arrived while the token was being delivered
    };

    void admitLocked(CallId id, Call& call, int64_t nowUs);
    // Forgets a call; its slot, if it had one, goes to the next waiting call.
    void eraseLocked(std::unordered_map<CallId, Call>::iterator it, int64_t nowUs);
    void deliverToken(CallId id);
    void deliverDone(CallId id, ModelReply reply);

    std::shared_ptr<const CallResponder> m_responder;
    std::shared_ptr<RunClock> m_clock;
    double m_timeScale;
    int64_t m_background;
    std::mutex m_mutex; // guards the three below
    std::unordered_map<CallId, Call> m_calls;
    AdmissionQueue m_queue;
    CallId m_next = 1;
};

} // namespace conclave
