#include "conclave/http/OpenAiCall.h"

#include "conclave/http/ChatRequest.h"
#include "conclave/http/OpenAiErrors.h"
#include "conclave/util/TokenEstimate.h"

#include <algorithm>

namespace conclave {

namespace {

// An error body is short; a non-streamed answer may be long, but not this long.
constexpr size_t kMaxErrorBody = 64 * 1024;
constexpr size_t kMaxBody = 32 * 1024 * 1024;
// Nothing a server sends in one event line is this long.
constexpr size_t kMaxPendingEvent = 8 * 1024 * 1024;

bool success(long status) { return status >= 200 && status <= 299; }

} // namespace

OpenAiCall::OpenAiCall(std::shared_ptr<const OpenAiSettings> settings, ModelRequest request, CallCallbacks callbacks)
    : m_settings(std::move(settings)), m_request(std::move(request)), m_callbacks(std::move(callbacks)),
      m_created(std::chrono::steady_clock::now())
{
}

HttpRequest OpenAiCall::httpRequest(std::shared_ptr<EndpointLimits> limits) const
{
    HttpRequest r;
    r.url = m_settings->url("/chat/completions");
    r.post = true;
    r.body = ChatRequest::body(m_request, m_settings->stream, m_settings->maxTokensParam);
    r.headers = m_settings->requestHeaders(m_settings->stream);
    r.caFile = m_settings->caFile;
    r.connectTimeoutMs = m_settings->connectTimeoutMs;
    // Without streaming, the whole answer is one silence; the node's timeout bounds it.
    r.stallMs = m_settings->stream ? m_settings->stallMs : 0;
    r.limits = std::move(limits);
    return r;
}

bool OpenAiCall::decideStreaming(const HttpResponse& head) const
{
    if (!m_settings->stream || !success(head.status))
        return false;
    // A server that ignores "stream": true answers with one JSON body.
    const auto it = head.headers.find("content-type");
    return it == head.headers.end() || it->second.find("application/json") == std::string::npos;
}

bool OpenAiCall::onData(const HttpResponse& head, std::string_view bytes)
{
    if (!m_streaming)
        m_streaming = decideStreaming(head);
    if (!*m_streaming) {
        const size_t limit = success(head.status) ? kMaxBody : kMaxErrorBody;
        const size_t room = limit - std::min(limit, m_body.size());
        m_body.append(bytes.substr(0, room));
        if (bytes.size() > room && success(head.status)) {
            m_tooLarge = true;
            return false;
        }
        return true;
    }
    if (!takeEvents(m_parser.feed(bytes)))
        return false;
    if (m_parser.pending() > kMaxPendingEvent) {
        m_tooLarge = true;
        return false;
    }
    return true;
}

bool OpenAiCall::takeEvents(const std::vector<SseEvent>& events)
{
    for (const auto& event : events) {
        auto delta = m_decoder.take(event);
        if (m_decoder.error())
            return false;  // an error inside the stream ends the call
        if (!delta.empty()) {
            m_text += delta;
            if (m_callbacks.onToken)
                m_callbacks.onToken(delta);
        }
    }
    return true;
}

void OpenAiCall::onDone(HttpResponse response)
{
    auto reply = this->reply(response);
    auto done = std::move(m_callbacks.onDone);
    m_callbacks = {};
    if (done)
        done(std::move(reply));
}

ModelReply OpenAiCall::reply(const HttpResponse& response)
{
    ModelReply r;
    if (response.cancelled) {
        r.cancelled = true;
        r.error = "cancelled";
        return r;
    }
    if (m_streaming.value_or(false))
        r = streamReply(response);
    else
        r = bodyReply(response);
    // A server may echo what it was sent; the key must not travel any further.
    r.error = OpenAiErrors::redact(std::move(r.error), m_settings->apiKey);
    r.text = OpenAiErrors::redact(std::move(r.text), m_settings->apiKey);
    if (response.admitted) {
        r.waitUs = std::max<int64_t>(
            0, std::chrono::duration_cast<std::chrono::microseconds>(*response.admitted - m_created).count());
        r.inflight = response.inflight;
    }
    return r;
}

ModelReply OpenAiCall::streamReply(const HttpResponse& response)
{
    ModelReply r;
    if (!response.stalled && response.curlCode == 0 && !m_decoder.error())
        takeEvents(m_parser.finish());
    r.text = m_text;  // what arrived, even when the call failed
    countTokens(r, m_decoder.promptTokens(), m_decoder.completionTokens());
    if (const auto& error = m_decoder.error()) {
        r.error = error->message;
        r.retryable = m_decoder.malformed() || OpenAiErrors::retryableInStream(*error);
        return r;
    }
    if (m_tooLarge) {
        r.error = "the server sent an event longer than " + std::to_string(kMaxPendingEvent) + " bytes";
        return r;
    }
    if (response.stalled || (response.curlCode != 0 && !response.aborted)) {
        r.error = (response.stalled ? "the stream stalled: " : "the stream was cut short: ") + response.transportError;
        r.retryable = response.retryableTransport;
        return r;
    }
    if (!m_decoder.done() && !m_decoder.finished()) {
        r.error = "the stream was cut short: it ended before [DONE]";
        r.retryable = true;
        return r;
    }
    r.ok = true;
    return r;
}

ModelReply OpenAiCall::bodyReply(const HttpResponse& response)
{
    ModelReply r;
    if (response.status == 0 || (response.curlCode != 0 && !response.aborted && success(response.status))) {
        r.error = response.transportError.empty() ? "no answer from " + m_settings->baseUrl : response.transportError;
        r.retryable = response.retryableTransport;
        return r;
    }
    if (!success(response.status)) {
        const auto error = OpenAiErrors::fromBody(m_body);
        r.error = OpenAiErrors::describe(response.status, error, m_body);
        r.retryable = OpenAiErrors::retryableStatus(response.status, error);
        r.retryAfterMs = OpenAiErrors::retryAfterMs(response.headers);
        return r;
    }
    if (m_tooLarge) {
        r.error = "the server's answer is larger than " + std::to_string(kMaxBody) + " bytes";
        return r;
    }
    auto completion = ChatRequest::parse(m_body);
    if (completion.error) {
        r.error = completion.error->message;
        r.retryable = completion.error->type == "malformed_response" || OpenAiErrors::retryableInStream(*completion.error);
        return r;
    }
    r.text = std::move(completion.text);
    countTokens(r, completion.promptTokens, completion.completionTokens);
    if (!r.text.empty() && m_callbacks.onToken)
        m_callbacks.onToken(r.text);  // the whole answer is its first token
    r.ok = true;
    return r;
}

void OpenAiCall::countTokens(ModelReply& reply, std::optional<int64_t> in, std::optional<int64_t> out) const
{
    reply.tokensIn = in.value_or(estimateTokens(m_request.system) + estimateTokens(m_request.prompt));
    const int64_t fallback = m_decoder.deltas() > 0 ? m_decoder.deltas() : estimateTokens(reply.text);
    reply.tokensOut = out.value_or(fallback);
}

} // namespace conclave
