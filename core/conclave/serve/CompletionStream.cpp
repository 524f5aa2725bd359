#include "conclave/serve/CompletionStream.h"

#include "conclave/serve/ServeError.h"

namespace conclave {

namespace {

using nlohmann::ordered_json;

const char* finishReason(RunStatus status)
{
    return status == RunStatus::BudgetExhausted ? "length" : "stop";
}

std::string sse(const std::string& data)
{
    return "data: " + data + "\n\n";
}

ordered_json usageOf(const RunResult& r)
{
    return ordered_json{{"prompt_tokens", r.tokensIn},
                        {"completion_tokens", r.tokensOut},
                        {"total_tokens", r.tokensIn + r.tokensOut}};
}

} // namespace

CompletionStream::CompletionStream(Setup setup, std::shared_ptr<HttpExchange> exchange, FirstContent firstContent,
                                   Finished finished)
    : m_setup(std::move(setup)), m_exchange(std::move(exchange)), m_firstContent(std::move(firstContent)),
      m_finished(std::move(finished))
{
}

std::vector<std::pair<std::string, std::string>> CompletionStream::headers() const
{
    std::vector<std::pair<std::string, std::string>> out{{"x-conclave-run-id", m_setup.runId}};
    if (!m_setup.ignored.empty()) {
        std::string list;
        for (const auto& field : m_setup.ignored)
            list += (list.empty() ? "" : ", ") + field;
        out.emplace_back("x-conclave-ignored", list);
    }
    return out;
}

ordered_json CompletionStream::head(const char* object) const
{
    return ordered_json{{"id", "chatcmpl-" + m_setup.runId},
                        {"object", object},
                        {"created", m_setup.created},
                        {"model", m_setup.model}};
}

std::string CompletionStream::chunk(const ordered_json& delta, const char* finish) const
{
    ordered_json choice{{"index", 0}, {"delta", delta}, {"logprobs", nullptr}};
    choice["finish_reason"] = finish ? ordered_json(finish) : ordered_json(nullptr);
    ordered_json j = head("chat.completion.chunk");
    j["choices"] = ordered_json::array({choice});
    if (m_setup.includeUsage)
        j["usage"] = nullptr;
    return sse(j.dump(-1, ' ', false, ordered_json::error_handler_t::replace));
}

void CompletionStream::begin()
{
    if (!m_setup.stream)
        return;
    HttpResponseHead head;
    head.headers = {{"Content-Type", "text/event-stream"}, {"Cache-Control", "no-cache"}};
    for (auto& h : headers())
        head.headers.push_back(std::move(h));
    m_exchange->beginStream(std::move(head), StreamFraming::Chunked);
    m_exchange->write(chunk(ordered_json{{"role", "assistant"}, {"content", ""}}, nullptr));
    // Comments keep proxies and clients from timing out until the answer's content is done.
    m_exchange->after(m_setup.keepAliveEvery, [weak = weak_from_this()] {
            if (auto self = weak.lock())
                self->keepAlive();
        });
}

void CompletionStream::keepAlive()
{
    if (m_contentDone.load())
        return;
    m_exchange->write(": keep-alive\n\n");
    m_exchange->after(m_setup.keepAliveEvery, [weak = weak_from_this()] {
        if (auto self = weak.lock())
            self->keepAlive();
    });
}

void CompletionStream::sendContent(std::string_view text)
{
    if (text.empty())
        return;
    if (!m_anyContent) {
        m_anyContent = true;
        if (m_firstContent)
            m_firstContent(std::chrono::duration<double>(std::chrono::steady_clock::now() - m_setup.arrived).count());
    }
    m_sent += text;
    m_exchange->write(chunk(ordered_json{{"content", std::string(text)}}, nullptr));
}

void CompletionStream::spanStarted(const Span& span)
{
    if (!m_setup.stream || span.node != m_setup.rule.feeder)
        return;
    using Kind = StreamRule::Kind;
    if (m_setup.rule.kind == Kind::CombineTokens && span.kind == SpanKind::Round && span.name == "combine")
        m_combineRounds.insert(span.id);
    else if (span.kind == SpanKind::Attempt &&
             (m_setup.rule.kind == Kind::Tokens ||
              (m_setup.rule.kind == Kind::CombineTokens && m_combineRounds.count(span.parent))))
        m_streamable.insert(span.id);
}

void CompletionStream::nodeToken(const NodeId& node, SpanId span, std::string_view text, int64_t)
{
    if (!m_setup.stream || node != m_setup.rule.feeder || !m_streamable.count(span) || m_contentDone.load())
        return;
    // One attempt's tokens only: a retry after a failed attempt that had
    // begun to stream is told at the end, against the whole answer.
    if (m_streaming == 0)
        m_streaming = span;
    if (span == m_streaming)
        sendContent(text);
}

void CompletionStream::nodeFinished(const NodeId& node, const NodeResult& result, int64_t)
{
    if (node != m_setup.outputNode)
        return;
    m_answered = result.ok();
    m_answer = result.text;
    if (!m_setup.stream || !m_answered)
        return;
    if (m_answer.compare(0, m_sent.size(), m_sent) == 0)
        sendContent(std::string_view(m_answer).substr(m_sent.size()));
    else
        m_broken = true;
    m_contentDone.store(true);
}

void CompletionStream::runFinished(const RunResult& result)
{
    m_contentDone.store(true);
    ServedRunEnd end;
    end.status = result.status;
    end.wallUs = result.wallUs;
    end.tokensIn = result.tokensIn;
    end.tokensOut = result.tokensOut;
    end.costUsd = result.costUsd;
    const bool answered = m_answered && !m_broken;
    if (!answered) {
        if (m_broken)
            end.error = "an attempt that had begun to stream failed, and the answer came from another";
        else if (result.status == RunStatus::Cancelled)
            end.error = m_draining.load() ? "the server shut down before the run ended" : "the run was cancelled";
        else
            end.error = "the team gave no answer (run " + std::string(toString(result.status)) +
                        (result.output.error.empty() ? "" : ": " + result.output.error) + ")";
    }
    const bool draining = m_draining.load();
    const auto error = ServeError::server(draining ? 503 : 500, end.error + " [run " + m_setup.runId + "]",
                                          draining ? "draining" : "run_failed");
    if (!m_setup.stream && !answered)
        end.httpStatus = error.status;
    // Told before the answer goes out, so that what the run cost is settled
    // before the client can send its next request.
    if (m_finished)
        m_finished(end);
    if (m_setup.stream) {
        if (answered) {
            m_exchange->write(chunk(ordered_json::object(), finishReason(result.status)));
            if (m_setup.includeUsage) {
                ordered_json j = head("chat.completion.chunk");
                j["choices"] = ordered_json::array();
                j["usage"] = usageOf(result);
                m_exchange->write(sse(j.dump()));
            }
        } else {
            m_exchange->write(error.event());
        }
        m_exchange->write(sse("[DONE]"));
        m_exchange->end();
    } else if (answered) {
        ordered_json message{{"role", "assistant"}, {"content", m_answer}, {"refusal", nullptr}};
        ordered_json choice{{"index", 0}, {"message", message}, {"logprobs", nullptr},
                            {"finish_reason", finishReason(result.status)}};
        ordered_json j = head("chat.completion");
        j["choices"] = ordered_json::array({choice});
        j["usage"] = usageOf(result);
        if (m_firstContent)
            m_firstContent(std::chrono::duration<double>(std::chrono::steady_clock::now() - m_setup.arrived).count());
        sendJson(*m_exchange, 200, j.dump(-1, ' ', false, ordered_json::error_handler_t::replace) + "\n", headers());
    } else {
        error.sendTo(*m_exchange, headers());
    }
}

} // namespace conclave
