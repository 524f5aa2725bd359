#include "conclave/http/OpenAiErrors.h"

#include "conclave/io/JsonText.h"

#include <curl/curl.h>

#include <algorithm>
#include <charconv>
#include <cmath>

namespace conclave::OpenAiErrors {

namespace {

std::string textOf(const nlohmann::json& value)
{
    if (value.is_string())
        return value.get<std::string>();
    if (value.is_number_integer())
        return std::to_string(value.get<int64_t>());
    return {};
}

std::string trimmed(std::string_view text)
{
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t'))
        text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r' || text.back() == '\n'))
        text.remove_suffix(1);
    return std::string(text);
}

std::optional<double> number(std::string_view text)
{
    const auto t = trimmed(text);
    if (t.empty())
        return std::nullopt;
    char* end = nullptr;
    const double value = std::strtod(t.c_str(), &end);
    if (end != t.c_str() + t.size() || !std::isfinite(value) || value < 0)
        return std::nullopt;
    return value;
}

int64_t capped(double ms) { return int64_t(std::min<double>(std::ceil(ms), double(kMaxRetryAfterMs))); }

} // namespace

std::optional<ServerError> fromJson(const nlohmann::json& value)
{
    if (!value.is_object())
        return std::nullopt;
    const nlohmann::json* source = nullptr;
    if (const auto it = value.find("error"); it != value.end()) {
        if (it->is_string())
            return ServerError{it->get<std::string>(), {}, {}};
        if (it->is_object())
            source = &*it;
    } else if (value.value("object", "") == "error" || value.contains("message")) {
        source = &value;
    }
    if (!source)
        return std::nullopt;
    ServerError error;
    if (const auto m = source->find("message"); m != source->end())
        error.message = textOf(*m);
    if (const auto t = source->find("type"); t != source->end())
        error.type = textOf(*t);
    if (const auto c = source->find("code"); c != source->end())
        error.code = textOf(*c);
    if (error.message.empty() && error.type.empty() && error.code.empty())
        return std::nullopt;
    return error;
}

std::optional<ServerError> fromBody(std::string_view body)
{
    auto value = parseJsonQuietly(body);
    if (value.is_discarded())
        return std::nullopt;
    return fromJson(value);
}

bool isQuotaError(const ServerError& error)
{
    return error.code == "insufficient_quota" || error.type == "insufficient_quota";
}

bool retryableStatus(long status, const std::optional<ServerError>& error)
{
    if (error && isQuotaError(*error))
        return false;
    return status == 408 || status == 409 || status == 429 || (status >= 500 && status <= 599);
}

bool retryableInStream(const ServerError& error)
{
    if (isQuotaError(error))
        return false;
    long status = 0;
    const auto& code = error.code;
    if (std::from_chars(code.data(), code.data() + code.size(), status).ec == std::errc() && status >= 400)
        return retryableStatus(status, error);
    return error.type != "invalid_request_error" && error.type != "authentication_error" &&
           error.type != "permission_error" && error.type != "not_found_error";
}

std::optional<int64_t> retryAfterMs(const std::map<std::string, std::string>& headers, std::time_t now)
{
    if (const auto it = headers.find("retry-after-ms"); it != headers.end()) {
        if (const auto ms = number(it->second))
            return capped(*ms);
    }
    const auto it = headers.find("retry-after");
    if (it == headers.end())
        return std::nullopt;
    if (const auto seconds = number(it->second))
        return capped(*seconds * 1000.0);
    const auto text = trimmed(it->second);
    const std::time_t when = curl_getdate(text.c_str(), nullptr);
    if (when < 0)
        return std::nullopt;
    return capped(std::max<double>(0.0, double(when - now) * 1000.0));
}

std::string describe(long status, const std::optional<ServerError>& error, std::string_view body)
{
    if (error && !error->message.empty())
        return error->message;
    std::string text = "HTTP " + std::to_string(status);
    if (error && !error->code.empty())
        return text + ": " + error->code;
    if (error && !error->type.empty())
        return text + ": " + error->type;
    // Raw bytes of an unknown body: printable ASCII only, so the text is valid UTF-8 wherever it goes.
    auto start = trimmed(body.substr(0, 200));
    std::replace_if(start.begin(), start.end(), [](char c) { return c < 0x20 || c > 0x7e; }, '?');
    if (!start.empty())
        text += ": " + start;
    return text;
}

std::string redact(std::string text, std::string_view secret)
{
    if (secret.empty())
        return text;
    for (size_t at = text.find(secret); at != std::string::npos; at = text.find(secret, at))
        text.replace(at, secret.size(), "[redacted]");
    return text;
}

} // namespace conclave::OpenAiErrors
