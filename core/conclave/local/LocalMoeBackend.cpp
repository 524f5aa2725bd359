#include "conclave/local/LocalMoeBackend.h"

#include <algorithm>

namespace conclave {

LocalMoeBackend::LocalMoeBackend(std::shared_ptr<const CallResponder> responder, std::shared_ptr<RunClock> clock,
                                 double timeScale, SimulatedLoad load)
    : m_responder(std::move(responder)), m_clock(std::move(clock)), m_timeScale(m_clock->scale(timeScale)),
      m_background(std::max<int64_t>(0, load.backgroundInflight)), m_queue(load.maxConcurrency)
{
}

LocalMoeBackend::~LocalMoeBackend()
{
    std::lock_guard lock(m_mutex);
    for (auto& [id, call] : m_calls) {
        m_clock->cancel(call.tokenTimer);
        m_clock->cancel(call.doneTimer);
    }
}

CallId LocalMoeBackend::start(ModelRequest request, CallCallbacks callbacks)
{
    auto decided = m_responder->respond(request);
    const int64_t now = m_clock->nowUs();
    std::lock_guard lock(m_mutex);
    const CallId id = m_next++;
    auto& call = m_calls[id];
    call.callbacks = std::move(callbacks);
    call.decided = std::move(decided);
    call.startUs = now;
    if (m_queue.arrive(id))
        admitLocked(id, call, now);
    return id;
}

void LocalMoeBackend::admitLocked(CallId id, Call& call, int64_t nowUs)
{
    call.admitted = true;
    SimulatedCall decided = std::move(call.decided);
    // A call takes longer the more calls are in flight with it (fixed at its admission).
    decided.reply.waitUs = nowUs - call.startUs;
    decided.reply.inflight = m_queue.serving() + m_background;
    const double load = 1.0 + decided.loadSlope * double(decided.reply.inflight - 1);
    const auto at = [&](double ms) { return nowUs + static_cast<int64_t>(ms * load * m_timeScale * 1000.0); };
    decided.reply.plannedMs *= load;
    if (decided.reply.ok)
        call.firstChunk = std::move(decided.firstChunk);
    // A first token within a millisecond of the end rides on the end's timer.
    const bool separateToken = !call.firstChunk.empty() && decided.totalMs - decided.ttftMs >= 1.0;
    const std::weak_ptr<LocalMoeBackend> self = weak_from_this();
    if (separateToken) {
        call.tokenTimer = m_clock->schedule(at(decided.ttftMs), [self, id] {
            if (const auto backend = self.lock())
                backend->deliverToken(id);
        });
    }
    call.doneTimer = m_clock->schedule(at(decided.totalMs), [self, id, reply = std::move(decided.reply)]() mutable {
        if (const auto backend = self.lock())
            backend->deliverDone(id, std::move(reply));
    });
}

void LocalMoeBackend::eraseLocked(std::unordered_map<CallId, Call>::iterator it, int64_t nowUs)
{
    const bool admitted = it->second.admitted;
    m_calls.erase(it);
    if (!admitted)
        return;
    for (auto next = m_queue.release(); next; next = m_queue.release()) {
        if (const auto waiting = m_calls.find(*next); waiting != m_calls.end()) {
            admitLocked(*next, waiting->second, nowUs);
            return;
        }
    }
}

// The first token always reaches the caller before the reply, even when their
// timers fire together on two workers: whoever comes first delivers the token,
// and a reply that arrives while the token is being delivered waits for it.
void LocalMoeBackend::deliverToken(CallId id)
{
    std::function<void(std::string_view)> onToken;
    std::string chunk;
    {
        std::lock_guard lock(m_mutex);
        const auto it = m_calls.find(id);
        if (it == m_calls.end() || it->second.token != TokenState::Pending)
            return;
        it->second.token = TokenState::Delivering;
        onToken = it->second.callbacks.onToken;
        chunk = std::move(it->second.firstChunk);
    }
    if (onToken && !chunk.empty())
        onToken(chunk);
    std::optional<ModelReply> parked;
    std::function<void(ModelReply)> onDone;
    {
        std::lock_guard lock(m_mutex);
        const auto it = m_calls.find(id);
        if (it == m_calls.end())
            return;
        it->second.token = TokenState::Delivered;
        if (!it->second.parkedReply)
            return;
        parked = std::move(it->second.parkedReply);
        onDone = std::move(it->second.callbacks.onDone);
        eraseLocked(it, m_clock->nowUs());
    }
    if (onDone)
        onDone(std::move(*parked));
}

void LocalMoeBackend::deliverDone(CallId id, ModelReply reply)
{
    std::function<void(ModelReply)> onDone;
    {
        std::lock_guard lock(m_mutex);
        const auto it = m_calls.find(id);
        if (it == m_calls.end())
            return;
        auto& call = it->second;
        const bool tokenOwed = call.token == TokenState::Pending && !call.firstChunk.empty();
        if (call.token == TokenState::Delivering || tokenOwed) {
            // Whoever delivers the token hands the reply on right after it.
            call.parkedReply = std::move(reply);
            if (!tokenOwed)
                return;
            m_clock->cancel(call.tokenTimer);
        } else {
            onDone = std::move(call.callbacks.onDone);
            eraseLocked(it, m_clock->nowUs());
        }
    }
    if (onDone) {
        onDone(std::move(reply));
        return;
    }
    deliverToken(id);  // a no-op when the token's own timer got there first
}

void LocalMoeBackend::cancel(CallId id)
{
    std::lock_guard lock(m_mutex);
    const auto it = m_calls.find(id);
    if (it == m_calls.end())
        return;
    // A waiting call leaves the queue and says cancelled, as the run's work.
    const bool waiting = m_queue.leave(id);
    m_clock->cancel(it->second.tokenTimer);
    if (it->second.token == TokenState::Pending)
        it->second.firstChunk.clear();  // a cancelled call sends no more text
    // If the reply is already on its way, it arrives as it is; otherwise say cancelled now.
    if (waiting || m_clock->cancel(it->second.doneTimer)) {
        ModelReply reply;
        reply.cancelled = true;
        reply.error = "cancelled";
        m_clock->post([self = weak_from_this(), id, reply]() mutable {
            if (const auto backend = self.lock())
                backend->deliverDone(id, std::move(reply));
        });
    }
}

double LocalMoeBackend::costOf(std::string_view model, int64_t tokensIn, int64_t tokensOut) const
{
    return m_responder->costOf(model, tokensIn, tokensOut);
}

} // namespace conclave
