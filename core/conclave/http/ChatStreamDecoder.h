#pragma once

#include "conclave/http/OpenAiErrors.h"
#include "conclave/http/SseParser.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace conclave {

// Reads a streamed chat completion event by event: content deltas, the usage
// chunk (whose `choices` is empty), the finish reason, `[DONE]`, and an error
// object sent inside a 200 stream. A chunk that is not JSON is an error too.
class ChatStreamDecoder {
public:
    // The content an event adds (often empty: the role chunk, the usage chunk).
    std::string take(const SseEvent& event);

    bool done() const { return m_done; }           // [DONE] arrived
    bool finished() const { return m_finished; }   // a finish_reason arrived
    const std::optional<ServerError>& error() const { return m_error; }
    bool malformed() const { return m_malformed; }
    std::optional<int64_t> promptTokens() const { return m_promptTokens; }
    std::optional<int64_t> completionTokens() const { return m_completionTokens; }
    int64_t deltas() const { return m_deltas; }  // content chunks, a fallback count of output tokens

private:
    bool m_done = false;
    bool m_finished = false;
    bool m_malformed = false;
    std::optional<ServerError> m_error;
    std::optional<int64_t> m_promptTokens;
    std::optional<int64_t> m_completionTokens;
    int64_t m_deltas = 0;
};

} // namespace conclave
