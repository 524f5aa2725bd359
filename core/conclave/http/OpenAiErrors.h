#pragma once

#include <cstdint>
#include <ctime>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace conclave {

// An error as an OpenAI-compatible server states it.
struct ServerError {
    std::string message;
    std::string type;
    std::string code;  // a string or a number in the wild; kept as text
};

// What OpenAI-compatible servers really send when something goes wrong, and
// what a careful client makes of it.
namespace OpenAiErrors {

// The longest wait a server may ask for before a retry; longer asks are capped.
constexpr int64_t kMaxRetryAfterMs = 60000;

// {"error": {"message", "type", "code"}} (OpenAI, llama.cpp, LM Studio),
// {"object": "error", "message", ...} (vLLM), {"error": "text"} (Ollama), or
// nothing when the value has no message.
std::optional<ServerError> fromJson(const nlohmann::json& value);
std::optional<ServerError> fromBody(std::string_view body);

// Whether another try may succeed: 408, 409, 429 and 5xx may; 400, 401,
// 403, 404 and any other 4xx may not, nor an exhausted quota whatever its status.
bool retryableStatus(long status, const std::optional<ServerError>& error);
// An error object inside a 200 stream: retryable unless it says the request
// itself is wrong or the quota is gone.
bool retryableInStream(const ServerError& error);
bool isQuotaError(const ServerError& error);

// The wait the server asks for: `retry-after-ms` (milliseconds) first, then
// `Retry-After` (seconds or an HTTP date), capped at kMaxRetryAfterMs.
// Header names are lower case. `now` is for HTTP dates.
std::optional<int64_t> retryAfterMs(const std::map<std::string, std::string>& headers,
                                    std::time_t now = std::time(nullptr));

// The text of a failed call: the server's message; without one, the status
// and the start of the body.
std::string describe(long status, const std::optional<ServerError>& error, std::string_view body);

// `text` with every occurrence of `secret` replaced, so a key a server echoes
// never reaches a span, a log or an export.
std::string redact(std::string text, std::string_view secret);

} // namespace OpenAiErrors
} // namespace conclave
