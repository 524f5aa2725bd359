// The bookkeeping half of Run: spans, the calls in flight, usage and
// budgets. Same class and lock discipline as Run.cpp: every method here
// expects the run's lock held.
#include "conclave/engine/Run.h"

#include "conclave/engine/CallRunner.h"

namespace conclave {

SpanId Run::openSpan(SpanKind kind, const NodeId& node, SpanId parent, std::string name, int round, int attempt,
                     std::string model)
{
    Span span;
    span.id = m_spans.size() + 1;
    span.parent = parent;
    span.node = node;
    span.kind = kind;
    span.name = std::move(name);
    span.startUs = nowUs();
    span.round = round;
    span.attempt = attempt;
    span.model = std::move(model);
    if (kind == SpanKind::Attempt)
        ++m_callCount;
    m_spans.push_back(std::move(span));
    notifyObservers([&](RunObserver& o) { o.spanStarted(m_spans.back()); });
    return m_spans.back().id;
}

void Run::closeSpan(SpanId id, Status status, std::string error, int64_t endUs)
{
    auto& span = m_spans[id - 1];
    if (span.endUs >= 0)
        return;
    span.endUs = std::max(endUs >= 0 ? endUs : nowUs(), span.startUs);
    span.status = status;
    span.error = std::move(error);
    notifyObservers([&](RunObserver& o) { o.spanFinished(span); });
}

void Run::emitToken(const NodeId& node, SpanId span, std::string_view text)
{
    const auto at = nowUs();
    notifyObservers([&](RunObserver& o) { o.nodeToken(node, span, text, at); });
}

void Run::emitReply(const NodeId& node, SpanId span, std::string_view text)
{
    notifyObservers([&](RunObserver& o) { o.attemptReplied(node, span, text); });
}

CallSpec Run::callSpec(size_t node, SpanId parent, int round, std::string system, std::string prompt,
                       std::string_view suffix, CallPurpose purpose, CallInputs inputs) const
{
    const auto& pn = m_plan->at(node);
    const auto& settings = *pn.call;
    CallSpec spec;
    spec.node = pn.node->id;
    spec.parent = parent;
    spec.round = round;
    spec.backend = backend(settings.backend);
    spec.request.model = settings.model;
    spec.request.system = std::move(system);
    spec.request.prompt = std::move(prompt);
    spec.request.params = settings.params;
    spec.request.runInput = m_options.input;
    spec.request.salt = pn.node->id.str() + std::string(suffix);
    spec.request.draw = pn.drawRole + std::string(suffix);
    const bool answering = purpose == CallPurpose::Answer || purpose == CallPurpose::MemberTurn;
    spec.request.purpose = m_options.judge && answering ? CallPurpose::Judge : purpose;
    spec.request.inputs = std::move(inputs);
    spec.request.inputs.judge = m_options.judge;
    spec.fallbackModel = settings.fallbackModel;
    spec.timeoutMs = settings.timeoutMs;
    spec.retries = settings.retries;
    return spec;
}

void Run::trackCall(const std::shared_ptr<CallRunner>& call)
{
    // After the end nothing is tracked: finish() has let go of every call, and
    // a call tracked later would keep the run alive (and the run the call).
    if (m_finished)
        return;
    call->m_trackSlot = m_calls.size();
    m_calls.push_back(call);
}

void Run::untrackCall(const CallRunner* call)
{
    // Swap with the last and pop: no search, no allocation, however many calls are in flight.
    const size_t slot = call->m_trackSlot;
    if (slot >= m_calls.size() || m_calls[slot].get() != call)
        return;
    if (slot + 1 != m_calls.size()) {
        m_calls[slot] = std::move(m_calls.back());
        m_calls[slot]->m_trackSlot = slot;
    }
    m_calls.pop_back();
}

std::optional<std::string> Run::budgetCheck()
{
    if (!m_budgetError.empty())
        return m_budgetError;
    const auto& budget = m_plan->team().budget;
    if (!budget)
        return std::nullopt;
    if (budget->maxCostUsd && m_costUsd >= *budget->maxCostUsd)
        m_budgetError =
            "budget exhausted: max_cost_usd " + std::to_string(*budget->maxCostUsd).substr(0, 6) + " reached";
    else if (budget->maxTokens && m_tokensIn + m_tokensOut >= *budget->maxTokens)
        m_budgetError = "budget exhausted: max_tokens " + std::to_string(*budget->maxTokens) + " reached";
    else if (budget->maxWallMs && double(nowUs()) >= double(*budget->maxWallMs) * 1000.0 * m_timeScale)
        m_budgetError = "budget exhausted: max_wall_ms " + std::to_string(*budget->maxWallMs) + " reached";
    if (m_budgetError.empty())
        return std::nullopt;
    return m_budgetError;
}

void Run::addUsage(int64_t tokensIn, int64_t tokensOut, double costUsd)
{
    m_tokensIn += tokensIn;
    m_tokensOut += tokensOut;
    m_costUsd += costUsd;
}

} // namespace conclave
