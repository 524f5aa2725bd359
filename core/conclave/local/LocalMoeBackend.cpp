#include "conclave/local/LocalMoeBackend.h"

#include <chrono>

namespace conclave {

LocalMoeBackend::LocalMoeBackend(std::shared_ptr<const LocalResponder> responder, TimerService& timers,
                                 ThreadPool& pool, double timeScale)
    : m_responder(std::move(responder)), m_timers(timers), m_pool(pool), m_timeScale(timeScale)
{
}

LocalMoeBackend::~LocalMoeBackend()
{
    std::lock_guard lock(m_mutex);
    for (auto& [id, call] : m_calls) {
        m_timers.cancel(call.tokenTimer);
        m_timers.cancel(call.doneTimer);
    }
}

CallId LocalMoeBackend::start(ModelRequest request, CallCallbacks callbacks)
{
    const auto decided = m_responder->respond(request);
    const auto now = Clock::now();
    const auto at = [&](double ms) {
        return now + std::chrono::microseconds(static_cast<int64_t>(ms * m_timeScale * 1000.0));
    };
    std::lock_guard lock(m_mutex);
    const CallId id = m_next++;
    auto& call = m_calls[id];
    call.callbacks = std::move(callbacks);
    // A first token within a millisecond of the end rides on the end's timer.
    const bool separateToken = decided.reply.ok && !decided.firstChunk.empty() && decided.totalMs - decided.ttftMs >= 1.0;
    if (separateToken) {
        call.tokenTimer = m_timers.schedule(at(decided.ttftMs), [this, id, chunk = decided.firstChunk] {
            deliverToken(id, chunk);
        });
    }
    const std::string lateChunk = decided.reply.ok && !separateToken ? decided.firstChunk : std::string();
    call.doneTimer = m_timers.schedule(at(decided.totalMs), [this, id, chunk = lateChunk,
                                                             reply = decided.reply]() mutable {
        if (!chunk.empty())
            deliverToken(id, chunk);
        deliverDone(id, std::move(reply));
    });
    return id;
}

void LocalMoeBackend::deliverToken(CallId id, const std::string& chunk)
{
    std::function<void(std::string_view)> onToken;
    {
        std::lock_guard lock(m_mutex);
        const auto it = m_calls.find(id);
        if (it == m_calls.end())
            return;
        onToken = it->second.callbacks.onToken;
    }
    if (onToken)
        onToken(chunk);
}

void LocalMoeBackend::deliverDone(CallId id, ModelReply reply)
{
    std::function<void(ModelReply)> onDone;
    {
        std::lock_guard lock(m_mutex);
        const auto it = m_calls.find(id);
        if (it == m_calls.end())
            return;
        onDone = std::move(it->second.callbacks.onDone);
        m_calls.erase(it);
    }
    if (onDone)
        onDone(std::move(reply));
}

void LocalMoeBackend::cancel(CallId id)
{
    std::lock_guard lock(m_mutex);
    const auto it = m_calls.find(id);
    if (it == m_calls.end())
        return;
    m_timers.cancel(it->second.tokenTimer);
    // If the reply is already on its way, it arrives as it is; otherwise say cancelled now.
    if (m_timers.cancel(it->second.doneTimer)) {
        ModelReply reply;
        reply.cancelled = true;
        reply.error = "cancelled";
        m_pool.post([this, id, reply]() mutable { deliverDone(id, std::move(reply)); });
    }
}

double LocalMoeBackend::costOf(std::string_view model, int64_t tokensIn, int64_t tokensOut) const
{
    const auto* profile = m_responder->profile(model);
    if (!profile)
        return 0;
    return (double(tokensIn) * profile->pricePerMtok.input + double(tokensOut) * profile->pricePerMtok.output) / 1e6;
}

} // namespace conclave
