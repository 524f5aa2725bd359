#include "conclave/serve/ServeError.h"

#include "conclave/httpserver/HttpExchange.h"

#include <nlohmann/json.hpp>

namespace conclave {

std::string ServeError::body() const
{
    using nlohmann::ordered_json;
    const auto orNull = [](const std::string& text) { return text.empty() ? ordered_json() : ordered_json(text); };
    ordered_json error{{"message", message}, {"type", type}, {"param", orNull(param)}, {"code", orNull(code)}};
    return ordered_json{{"error", std::move(error)}}.dump(-1, ' ', false, ordered_json::error_handler_t::replace) +
           "\n";
}

std::string ServeError::event() const
{
    std::string text = body();
    text.pop_back(); // its newline
    return "data: " + text + "\n\n";
}

void ServeError::sendTo(HttpExchange& exchange, HeaderList headers) const
{
    if (retryAfterS)
        headers.emplace_back("Retry-After", std::to_string(*retryAfterS));
    sendJson(exchange, status, body(), std::move(headers));
}

void sendJson(HttpExchange& exchange, int status, std::string body, HeaderList headers)
{
    HttpResponseHead head;
    head.status = status;
    head.headers.emplace_back("Content-Type", "application/json");
    for (auto& h : headers)
        head.headers.push_back(std::move(h));
    exchange.respond(std::move(head), std::move(body));
}

ServeError ServeError::badRequest(std::string message, std::string param)
{
    ServeError e;
    e.message = std::move(message);
    e.param = std::move(param);
    return e;
}

ServeError ServeError::server(int status, std::string message, std::string code, std::optional<int> retryAfterS)
{
    ServeError e;
    e.status = status;
    e.type = "server_error";
    e.message = std::move(message);
    e.code = std::move(code);
    e.retryAfterS = retryAfterS;
    return e;
}

ServeError ServeError::unsupported(std::string what, std::string param)
{
    ServeError e;
    e.message = "unsupported: " + std::move(what);
    e.param = std::move(param);
    e.code = "unsupported";
    return e;
}

} // namespace conclave
