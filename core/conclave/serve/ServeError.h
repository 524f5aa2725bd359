#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace conclave {

class HttpExchange;
using HeaderList = std::vector<std::pair<std::string, std::string>>;

// A whole JSON answer: `status`, Content-Type application/json, `headers`.
void sendJson(HttpExchange& exchange, int status, std::string body, HeaderList headers = {});

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
    // The same object as a server-sent event, for a stream that already began.
    std::string event() const;
    // Answers with it: its status and body, its Retry-After, and `headers`.
    void sendTo(HttpExchange& exchange, HeaderList headers = {}) const;

    static ServeError badRequest(std::string message, std::string param = {});
    // A failure on the server's side (type server_error).
    static ServeError server(int status, std::string message, std::string code, std::optional<int> retryAfterS = {});
    static ServeError unsupported(std::string what, std::string param);
};

} // namespace conclave
