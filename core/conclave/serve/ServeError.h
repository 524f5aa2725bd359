#pragma once

#include <optional>
#include <string>

namespace conclave {

// A refusal in OpenAI's shape: an HTTP status and the body
// {"error": {"message", "type", "param", "code"}} that OpenAI's clients read
// (param and code null when empty). retryAfterS, when set, becomes a
// Retry-After header.
struct ServeError {
    int status = 400;
    std::string message;
    std::string type = "invalid_request_error";
    std::string param;
    std::string code;
    std::optional<int> retryAfterS;

    std::string body() const;

    static ServeError badRequest(std::string message, std::string param = {});
    static ServeError unsupported(std::string what, std::string param);
};

} // namespace conclave
