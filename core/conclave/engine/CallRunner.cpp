#include "conclave/engine/CallRunner.h"

#include "conclave/engine/DeterministicRandom.h"
#include "conclave/engine/Run.h"

#include <algorithm>
#include <cmath>

namespace conclave {

namespace {
constexpr double kBaseBackoffMs = 250;
constexpr double kMaxBackoffMs = 20000;
} // namespace

CallRunner::CallRunner(std::shared_ptr<Run> run, CallSpec spec, std::function<void(CallOutcome)> done)
    : m_run(std::move(run)), m_spec(std::move(spec)), m_done(std::move(done)), m_model(m_spec.request.model)
{
}

double CallRunner::backoffMs(int attempt, double jitterUnit, std::optional<int64_t> retryAfterMs)
{
    if (retryAfterMs)
        return std::min<double>(double(*retryAfterMs), kMaxBackoffMs);
    const double exponential = kBaseBackoffMs * std::pow(2.0, std::max(0, attempt - 1));
    return std::min(kMaxBackoffMs, exponential * (0.5 + jitterUnit));
}

int64_t CallRunner::afterOnBackend(double teamMs) const
{
    // The call's own backend sets the scale: in a team mixing a scaled-down
    // simulator with a real endpoint, the endpoint's timeouts stay real.
    return m_run->clock().after(teamMs, m_spec.backend ? m_spec.backend->timeScale() : 1.0);
}

void CallRunner::start()
{
    std::optional<Launch> next;
    {
        auto lock = m_run->lock();
        next = prepareLocked();
    }
    launch(std::move(next));
}

std::optional<CallRunner::Launch> CallRunner::prepareLocked()
{
    // A call cancelled before it started (a meeting's next turn, posted just
    // before the run was cancelled) is over: tracking it now would tie the run
    // and the call to each other for good.
    if (m_finished)
        return std::nullopt;
    m_run->trackCall(shared_from_this());
    return beginAttemptLocked();
}

void CallRunner::attempt()
{
    std::optional<Launch> next;
    {
        auto lock = m_run->lock();
        m_backoffTimer = 0;
        next = beginAttemptLocked();
    }
    launch(std::move(next));
}

std::optional<CallRunner::Launch> CallRunner::beginAttemptLocked()
{
    if (m_finished)
        return std::nullopt;
    if (m_run->cancelled() || m_run->finishedLocked()) {
        finish(Status::Cancelled, {}, m_run->cancelled() ? "the run was cancelled" : "the run had ended");
        return std::nullopt;
    }
    if (const auto budget = m_run->budgetCheck()) {
        finish(Status::BudgetExhausted, {}, *budget);
        return std::nullopt;
    }
    ++m_attempt;
    ++m_triesOnModel;
    const uint64_t token = ++m_token;
    m_inFlight = true;
    {
        std::lock_guard ids(m_idMutex);
        m_idToken = token;
        m_callId = 0;
    }
    m_span = m_run->openSpan(SpanKind::Attempt, m_spec.node, m_spec.parent, "attempt " + std::to_string(m_attempt),
                             m_spec.round, m_attempt, m_model);
    m_run->span(m_span).draw = m_spec.request.drawKey();
    Launch next{token, m_spec.request};
    next.request.model = m_model;
    next.request.attempt = m_attempt;
    auto self = shared_from_this();
    m_timeoutTimer =
        m_run->clock().schedule(afterOnBackend(double(m_spec.timeoutMs)), [self, token] { self->onTimeout(token); });
    return next;
}

void CallRunner::launch(std::optional<Launch> next)
{
    if (!next)
        return;
    const uint64_t token = next->token;
    ModelRequest request = std::move(next->request);
    auto self = shared_from_this();
    const CallId id = m_spec.backend->start(
        std::move(request), CallCallbacks{[self, token](std::string_view chunk) { self->onToken(token, chunk); },
                                          [self, token](ModelReply reply) {
                                              const auto arrived = self->m_run->nowUs();
                                              self->onReply(token, std::move(reply), arrived);
                                          }});
    if (!recordCallId(token, id))
        m_spec.backend->cancel(id); // ended (timeout, cancel) or retried before its id was known
}

bool CallRunner::recordCallId(uint64_t token, CallId id)
{
    std::lock_guard ids(m_idMutex);
    if (token != m_idToken || m_abandoned >= token)
        return false;
    m_callId = id;
    return true;
}

void CallRunner::abandonLocked()
{
    m_run->assertLocked();
    CallId id = 0;
    {
        std::lock_guard ids(m_idMutex);
        m_abandoned = m_token;
        if (m_idToken == m_token)
            std::swap(id, m_callId);
    }
    if (id)
        m_spec.backend->cancel(id);
}

void CallRunner::onToken(uint64_t token, std::string_view chunk)
{
    auto lock = m_run->lock();
    if (token != m_token || !m_inFlight)
        return;
    auto& span = m_run->span(m_span);
    if (span.ttftUs < 0)
        span.ttftUs = m_run->nowUs() - span.startUs;
    m_run->emitToken(m_spec.node, m_span, chunk);
}

void CallRunner::onReply(uint64_t token, ModelReply reply, int64_t arrivedUs)
{
    // Reading the reply needs no shared state: do it before queueing for the lock.
    ParsedReply parsed;
    if (reply.ok)
        parsed = ReplyParser::parse(reply.text);
    auto lock = m_run->lock();
    if (token != m_token || !m_inFlight)
        return;
    m_inFlight = false;
    m_run->clock().cancel(m_timeoutTimer);
    auto& span = m_run->span(m_span);
    span.tokensIn = reply.tokensIn;
    span.tokensOut = reply.tokensOut;
    span.plannedMs = reply.plannedMs;
    span.waitUs = reply.waitUs;
    span.inflight = reply.inflight;
    span.costUsd = reply.costUsd ? *reply.costUsd : m_spec.backend->costOf(m_model, reply.tokensIn, reply.tokensOut);
    if (!reply.note.empty())
        span.note = std::move(reply.note);
    m_total.tokensIn += reply.tokensIn;
    m_total.tokensOut += reply.tokensOut;
    m_total.costUsd += span.costUsd;
    m_run->addUsage(reply.tokensIn, reply.tokensOut, span.costUsd);
    if (reply.ok) {
        m_run->emitReply(m_spec.node, m_span, reply.text);
        m_run->closeSpan(m_span, Status::Ok, {}, arrivedUs);
        m_total.parsed = std::move(parsed);
        finish(Status::Ok, std::move(reply.text), {}, arrivedUs);
        return;
    }
    if (reply.cancelled) {
        m_run->closeSpan(m_span, Status::Cancelled, "cancelled");
        finish(Status::Cancelled, {}, "cancelled");
        return;
    }
    m_run->closeSpan(m_span, Status::Failed, reply.error, arrivedUs);
    afterFailure(Status::Failed, reply.error, reply.retryable, reply.retryAfterMs);
}

void CallRunner::onTimeout(uint64_t token)
{
    auto lock = m_run->lock();
    if (token != m_token || !m_inFlight)
        return;
    m_inFlight = false;
    CallId id = 0;
    {
        std::lock_guard ids(m_idMutex);
        if (m_idToken == token)
            id = m_callId;
    }
    if (id)
        m_run->span(m_span).note = m_spec.backend->pendingNote(id);
    abandonLocked();
    const auto error = "timed out after " + std::to_string(m_spec.timeoutMs) + " ms";
    m_run->closeSpan(m_span, Status::Timeout, error);
    afterFailure(Status::Timeout, error, true, std::nullopt);
}

void CallRunner::afterFailure(Status status, const std::string& error, bool retryable,
                              std::optional<int64_t> retryAfterMs)
{
    if (m_run->cancelled()) {
        finish(Status::Cancelled, {}, "the run was cancelled");
        return;
    }
    const bool retry = retryable && m_triesOnModel <= m_spec.retries;
    const bool fallback = !retry && !m_usingFallback && m_spec.fallbackModel;
    if (!retry && !fallback) {
        finish(status, {}, error);
        return;
    }
    if (fallback) {
        m_usingFallback = true;
        m_model = *m_spec.fallbackModel;
        m_triesOnModel = 0;
    }
    const double jitter = DeterministicRandom::unit(
        DeterministicRandom::key({m_spec.node.str(), m_spec.request.salt, "backoff"}, m_run->seed()),
        uint64_t(m_attempt));
    const double delay = fallback ? 0 : backoffMs(m_triesOnModel, jitter, retryAfterMs);
    auto self = shared_from_this();
    m_backoffTimer = m_run->clock().schedule(afterOnBackend(delay), [self] { self->attempt(); });
}

void CallRunner::cancel(Status status, const std::string& why)
{
    if (m_finished)
        return;
    if (m_inFlight) {
        m_inFlight = false;
        m_run->clock().cancel(m_timeoutTimer);
        abandonLocked();
        m_run->closeSpan(m_span, status, why);
    }
    if (m_backoffTimer)
        m_run->clock().cancel(m_backoffTimer);
    finish(status, {}, why);
}

void CallRunner::finish(Status status, std::string text, std::string error, int64_t endUs)
{
    if (m_finished)
        return;
    m_finished = true;
    m_total.endUs = endUs;
    m_total.status = status;
    m_total.text = std::move(text);
    m_total.error = std::move(error);
    auto self = shared_from_this();  // untrackCall may drop the last other reference
    m_run->untrackCall(this);
    auto done = std::move(m_done);
    done(std::move(m_total));
}

} // namespace conclave
