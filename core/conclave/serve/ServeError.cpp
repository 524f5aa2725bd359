#include "conclave/serve/ServeError.h"

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

ServeError ServeError::badRequest(std::string message, std::string param)
{
    ServeError e;
    e.message = std::move(message);
    e.param = std::move(param);
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
