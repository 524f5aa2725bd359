#pragma once

#include "conclave/engine/ModelBackend.h"
#include "conclave/engine/RunClock.h"
#include "conclave/local/CallResponder.h"

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

namespace conclave {

// The embedded simulator as a backend: decides each call at once with a
// CallResponder (the simulator's LocalResponder, or a test world), then delivers the first token and the reply from timers on
// the run's clock, the simulated latency later (times `time_scale` on the
// real clock; exactly, on a virtual one). No thread waits on a call.
// Made with make_shared: a timer that fires after the run (and this backend)
// is gone must find nothing, not freed memory.
class LocalMoeBackend : public ModelBackend, public std::enable_shared_from_this<LocalMoeBackend> {
public:
    LocalMoeBackend(std::shared_ptr<const CallResponder> responder, std::shared_ptr<RunClock> clock, double timeScale);
    ~LocalMoeBackend() override;

    CallId start(ModelRequest request, CallCallbacks callbacks) override;
    void cancel(CallId call) override;
    double costOf(std::string_view model, int64_t tokensIn, int64_t tokensOut) const override;
    double timeScale() const override { return m_timeScale; }

private:
    enum class TokenState { Pending, Delivering, Delivered };
    struct Call {
        CallCallbacks callbacks;
        TimerId tokenTimer = 0;
        TimerId doneTimer = 0;
        std::string firstChunk;                 // empty: no token to send
        TokenState token = TokenState::Pending;
        std::optional<ModelReply> parkedReply;  // arrived while the token was being delivered
    };

    void deliverToken(CallId id);
    void deliverDone(CallId id, ModelReply reply);

    std::shared_ptr<const CallResponder> m_responder;
    std::shared_ptr<RunClock> m_clock;
    double m_timeScale;
    std::mutex m_mutex;
    std::unordered_map<CallId, Call> m_calls;
    CallId m_next = 1;
};

} // namespace conclave
