#include "conclave/replay/RecordedBackend.h"

#include "conclave/engine/DeterministicRandom.h"
#include "conclave/replay/ReplayNote.h"

#include <algorithm>
#include <cmath>

namespace conclave {

RecordedBackend::RecordedBackend(std::shared_ptr<const RecordingSource> source, std::shared_ptr<RunClock> clock,
                                 Settings settings, std::shared_ptr<ModelBackend> onMissing)
    : m_source(std::move(source)), m_clock(std::move(clock)), m_settings(std::move(settings)),
      m_onMissing(std::move(onMissing)), m_queue(m_settings.maxConcurrency)
{
}

RecordedBackend::~RecordedBackend()
{
    std::lock_guard lock(m_mutex);
    for (auto& [id, call] : m_calls)
        m_clock->cancel(call.timer);
}

const RecordedCall* RecordedBackend::choose(const std::vector<const RecordedCall*>& calls, uint64_t seed,
                                            const ModelRequest& request)
{
    if (calls.empty())
        return nullptr;
    for (const auto* call : calls) {
        if (call->seed() == seed)
            return call;
    }
    const uint64_t pick = DeterministicRandom::key({request.model, request.runInput, request.drawKey()}, seed);
    return calls[size_t(pick % calls.size())];
}

std::string RecordedBackend::missing(const ModelRequest& request, const std::string& why) const
{
    return "recorded backend \"" + m_settings.name + "\": " + why + " (model \"" + request.model + "\", draw \"" +
           request.drawKey() + "\", in " + m_source->describe() + ")";
}

CallId RecordedBackend::start(ModelRequest request, CallCallbacks callbacks)
{
    const auto found = m_source->find(request);
    const RecordedCall* chosen = choose(found, m_settings.seed, request);
    std::unique_lock lock(m_mutex);
    const CallId id = m_next++;
    const int n = ++m_attemptsMade[request.model + '\x1f' + request.drawKey()];
    std::string why;
    const StoredAttempt* record = nullptr;
    if (!chosen)
        why = "no call like it was recorded on this input";
    else if (size_t(n) > chosen->attempts.size())
        why = "run " + chosen->run().str() + " recorded " + std::to_string(chosen->attempts.size()) +
              (chosen->attempts.size() == 1 ? " attempt" : " attempts") + " of this call, not attempt " +
              std::to_string(n);
    else
        record = &chosen->attempts[size_t(n - 1)];
    if (record && record->span.status == Status::Ok && !record->text) {
        why = "the reply of run " + record->runId.str() + " span " + std::to_string(record->span.id) +
              " was not recorded";
        record = nullptr;
    }
    if (!record && m_onMissing) {
        lock.unlock();
        if (!m_settings.simulatedNote.empty() && callbacks.onDone) {
            callbacks.onDone = [note = m_settings.simulatedNote, onDone = std::move(callbacks.onDone)](ModelReply reply) {
                if (reply.note.empty())
                    reply.note = note;
                onDone(std::move(reply));
            };
        }
        const CallId inner = m_onMissing->start(std::move(request), std::move(callbacks));
        lock.lock();
        m_delegated.emplace(id, inner);
        return id;
    }
    auto& call = m_calls[id];
    call.callbacks = std::move(callbacks);
    call.startUs = m_clock->nowUs();
    if (!record) {
        call.takesSlot = false;
        call.reply.error = missing(request, why);
        call.phase = Phase::DonePending;
        const std::weak_ptr<RecordedBackend> self = weak_from_this();
        call.timer = m_clock->schedule(call.startUs, [self, id] {
            if (const auto backend = self.lock())
                backend->onDoneTime(id);
        });
        return id;
    }
    Span span = record->span;
    if (m_settings.recordedScale != 1.0) {
        const auto scaled = [k = m_settings.recordedScale](int64_t us) { return us < 0 ? us : std::llround(double(us) / k); };
        span.startUs = scaled(span.startUs);
        span.endUs = scaled(span.endUs);
        span.ttftUs = scaled(span.ttftUs);
        span.waitUs = scaled(span.waitUs);
    }
    const int64_t recordedWait = std::max<int64_t>(0, span.waitUs);
    auto& reply = call.reply;
    reply.tokensIn = span.tokensIn;
    reply.tokensOut = span.tokensOut;
    reply.costUsd = span.costUsd;
    reply.plannedMs = span.plannedMs;
    reply.note = ReplayNote::make(record->runId, span.id);
    call.doneAfterUs = span.serviceUs();
    if (span.status == Status::Ok) {
        reply.ok = true;
        reply.text = *record->text;
        // The first token when one came, as long after admission as it came then (the
        // reply follows it, even at the same instant): its time to first token replays exactly.
        if (span.ttftUs >= 0 && !reply.text.empty()) {
            call.tokenAfterUs = std::clamp<int64_t>(span.ttftUs - recordedWait, 0, call.doneAfterUs);
            call.token = true;
            call.firstChunk = reply.text;
        }
    } else if (span.status == Status::Failed) {
        reply.error = span.error;
        // Retryable when the recording retried it on this model: its next attempt is there.
        reply.retryable = size_t(n) < chosen->attempts.size();
    } else if (m_settings.continueCutShort) {
        // Cut short when recorded: it goes on as the simulator says, past the time it was served.
        auto continued = m_settings.continueCutShort(request, span.serviceUs());
        reply = std::move(continued.reply);
        reply.note = ReplayNote::simulatedAfter(record->runId, span.id, span.serviceUs());
        call.doneAfterUs = continued.doneUs;
        // The recorded first token, when one came before it was cut; else the simulator's.
        if (span.ttftUs >= 0 || continued.firstTokenUs >= 0) {
            call.token = true;
            call.tokenAfterUs = std::clamp<int64_t>(
                span.ttftUs >= 0 ? span.ttftUs - recordedWait : continued.firstTokenUs, 0, call.doneAfterUs);
            call.firstChunk = span.ttftUs >= 0 ? record->text.value_or("") : continued.firstChunk;
        }
    } else {
        // A recorded timeout or cancellation: no answer came, though a first token may have.
        call.doneAfterUs = -1;
        if (span.ttftUs >= 0) {
            call.tokenAfterUs = std::max<int64_t>(0, span.ttftUs - recordedWait);
            call.token = true;
            call.firstChunk = record->text.value_or("");
        }
    }
    if (m_settings.retime && call.doneAfterUs >= 0) {
        const auto times = m_settings.retime(request, {call.token ? call.tokenAfterUs : -1, call.doneAfterUs});
        call.doneAfterUs = std::max<int64_t>(0, times.doneUs);
        if (call.token)
            call.tokenAfterUs = std::clamp<int64_t>(times.firstTokenUs, 0, call.doneAfterUs);
    }
    if (m_queue.arrive(id))
        admitLocked(id, call, call.startUs);
    return id;
}

void RecordedBackend::admitLocked(CallId id, Call& call, int64_t nowUs)
{
    call.admittedUs = nowUs;
    call.reply.waitUs = nowUs - call.startUs;
    call.reply.inflight = m_queue.serving();
    const std::weak_ptr<RecordedBackend> self = weak_from_this();
    if (call.token) {
        call.phase = Phase::TokenPending;
        call.timer = m_clock->schedule(nowUs + call.tokenAfterUs, [self, id] {
            if (const auto backend = self.lock())
                backend->onTokenTime(id);
        });
    } else if (call.doneAfterUs < 0) {
        call.phase = Phase::Hanging;
    } else {
        call.phase = Phase::DonePending;
        call.timer = m_clock->schedule(nowUs + call.doneAfterUs, [self, id] {
            if (const auto backend = self.lock())
                backend->onDoneTime(id);
        });
    }
}

void RecordedBackend::releaseLocked(const Call& call, int64_t nowUs)
{
    if (!call.takesSlot || call.admittedUs < 0)
        return;
    for (auto next = m_queue.release(); next; next = m_queue.release()) {
        if (const auto it = m_calls.find(*next); it != m_calls.end()) {
            admitLocked(*next, it->second, nowUs);
            return;
        }
    }
}

void RecordedBackend::onTokenTime(CallId id)
{
    std::function<void(std::string_view)> onToken;
    std::string chunk;
    {
        std::lock_guard lock(m_mutex);
        const auto it = m_calls.find(id);
        if (it == m_calls.end())
            return;
        if (it->second.cancelled) {
            postCancelled(id);
            return;
        }
        it->second.phase = Phase::Delivering;
        onToken = it->second.callbacks.onToken;
        chunk = std::move(it->second.firstChunk);
    }
    if (onToken)
        onToken(chunk);
    std::lock_guard lock(m_mutex);
    const auto it = m_calls.find(id);
    if (it == m_calls.end())
        return;
    auto& call = it->second;
    if (call.cancelled) {
        postCancelled(id);
        return;
    }
    if (call.doneAfterUs < 0) {
        call.phase = Phase::Hanging;
        return;
    }
    call.phase = Phase::DonePending;
    const std::weak_ptr<RecordedBackend> self = weak_from_this();
    call.timer = m_clock->schedule(call.admittedUs + call.doneAfterUs, [self, id] {
        if (const auto backend = self.lock())
            backend->onDoneTime(id);
    });
}

void RecordedBackend::onDoneTime(CallId id)
{
    std::function<void(ModelReply)> onDone;
    ModelReply reply;
    {
        std::lock_guard lock(m_mutex);
        const auto it = m_calls.find(id);
        if (it == m_calls.end())
            return;
        onDone = std::move(it->second.callbacks.onDone);
        reply = std::move(it->second.reply);
        releaseLocked(it->second, m_clock->nowUs());
        m_calls.erase(it);
    }
    if (onDone)
        onDone(std::move(reply));
}

// Lock held. The cancelled reply goes out as the run's work, never on the canceller's stack.
void RecordedBackend::postCancelled(CallId id)
{
    m_clock->post([self = weak_from_this(), id] {
        const auto backend = self.lock();
        if (!backend)
            return;
        std::function<void(ModelReply)> onDone;
        {
            std::lock_guard lock(backend->m_mutex);
            const auto it = backend->m_calls.find(id);
            if (it == backend->m_calls.end())
                return;
            onDone = std::move(it->second.callbacks.onDone);
            backend->releaseLocked(it->second, backend->m_clock->nowUs());
            backend->m_calls.erase(it);
        }
        ModelReply reply;
        reply.cancelled = true;
        reply.error = "cancelled";
        if (onDone)
            onDone(std::move(reply));
    });
}

void RecordedBackend::cancel(CallId id)
{
    std::unique_lock lock(m_mutex);
    if (const auto d = m_delegated.find(id); d != m_delegated.end()) {
        const CallId inner = d->second;
        lock.unlock();
        m_onMissing->cancel(inner);
        return;
    }
    const auto it = m_calls.find(id);
    if (it == m_calls.end() || it->second.cancelled)
        return;
    auto& call = it->second;
    switch (call.phase) {
    case Phase::Queued:
        m_queue.leave(id);
        call.cancelled = true;
        postCancelled(id);
        return;
    case Phase::Hanging:
        call.cancelled = true;
        postCancelled(id);
        return;
    case Phase::TokenPending:
        call.cancelled = true;
        // Fired already: its callback sees the flag and says cancelled.
        if (m_clock->cancel(call.timer))
            postCancelled(id);
        return;
    case Phase::Delivering:
        call.cancelled = true; // the token's deliverer says cancelled after it
        return;
    case Phase::DonePending:
        // If the reply is already on its way, it arrives as it is.
        if (m_clock->cancel(call.timer)) {
            call.cancelled = true;
            postCancelled(id);
        }
        return;
    }
}

std::string RecordedBackend::pendingNote(CallId call) const
{
    std::lock_guard lock(m_mutex);
    const auto it = m_calls.find(call);
    return it == m_calls.end() ? std::string() : it->second.reply.note;
}

double RecordedBackend::costOf(std::string_view model, int64_t tokensIn, int64_t tokensOut) const
{
    return m_onMissing ? m_onMissing->costOf(model, tokensIn, tokensOut) : 0;
}

} // namespace conclave
