#pragma once

#include "conclave/engine/ModelBackend.h"
#include "conclave/http/OpenAiErrors.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace conclave {

// The JSON of a chat completion request, and of its non-streamed answer.
namespace ChatRequest {

// `maxTokensParam` is max_tokens (most servers) or max_completion_tokens
// (OpenAI's newer models). A stream asks for usage in its last chunk.
std::string body(const ModelRequest& request, bool stream, std::string_view maxTokensParam);

struct Completion {
    std::string text;
    std::optional<int64_t> promptTokens;
    std::optional<int64_t> completionTokens;
    std::optional<ServerError> error;  // an error object, or a body that is not a completion
};
Completion parse(std::string_view body);

} // namespace ChatRequest
} // namespace conclave
