#pragma once

#include "conclave/engine/ModelBackend.h"
#include "conclave/http/ChatStreamDecoder.h"
#include "conclave/http/HttpMultiLoop.h"
#include "conclave/http/OpenAiSettings.h"
#include "conclave/http/SseParser.h"

#include <chrono>
#include <memory>
#include <string>
#include <string_view>

namespace conclave {

// One chat completion over HTTP: turns the bytes of the answer into streamed
// tokens and, at the end, into one ModelReply the engine's CallRunner can act
// on (ok, the server's message, retryable, retry-after). Lives on the multi
// loop's thread once submitted.
class OpenAiCall {
public:
    OpenAiCall(std::shared_ptr<const OpenAiSettings> settings, ModelRequest request, CallCallbacks callbacks);

    HttpRequest httpRequest(std::shared_ptr<EndpointLimits> limits) const;
    bool onData(const HttpResponse& head, std::string_view bytes);
    void onDone(HttpResponse response);

    // The reply a finished transfer makes (onDone delivers it).
    ModelReply reply(const HttpResponse& response);

private:
    bool decideStreaming(const HttpResponse& head) const;
    bool takeEvents(const std::vector<SseEvent>& events);
    ModelReply streamReply(const HttpResponse& response);
    ModelReply bodyReply(const HttpResponse& response);
    void countTokens(ModelReply& reply, std::optional<int64_t> in, std::optional<int64_t> out) const;

    std::shared_ptr<const OpenAiSettings> m_settings;
    ModelRequest m_request;
    CallCallbacks m_callbacks;
    SseParser m_parser;
    ChatStreamDecoder m_decoder;
    std::string m_text;   // streamed content so far
    std::string m_body;   // an error body, or a whole non-streamed answer
    bool m_tooLarge = false;
    std::optional<bool> m_streaming;  // decided by the first bytes
    std::chrono::steady_clock::time_point m_created;  // when the engine started the call
};

} // namespace conclave
