#include "conclave/http/ChatRequest.h"

#include "conclave/io/JsonText.h"

#include <nlohmann/json.hpp>

namespace conclave::ChatRequest {

std::string body(const ModelRequest& request, bool stream, std::string_view maxTokensParam)
{
    nlohmann::json j = nlohmann::json::object();
    // Unknown params (seed, presence_penalty, ...) go through as they were; named ones win.
    if (request.params.extra.is_object())
        j = request.params.extra;
    j["model"] = request.model;
    nlohmann::json messages = nlohmann::json::array();
    if (!request.system.empty())
        messages.push_back({{"role", "system"}, {"content", request.system}});
    messages.push_back({{"role", "user"}, {"content", request.prompt}});
    j["messages"] = std::move(messages);
    const auto& p = request.params;
    if (p.temperature)
        j["temperature"] = *p.temperature;
    if (p.topP)
        j["top_p"] = *p.topP;
    if (p.maxTokens)
        j[std::string(maxTokensParam.empty() ? "max_tokens" : maxTokensParam)] = *p.maxTokens;
    if (p.stop && !p.stop->empty())
        j["stop"] = *p.stop;
    j["stream"] = stream;
    if (stream)
        j["stream_options"] = {{"include_usage", true}};
    else
        j.erase("stream_options");
    return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

Completion parse(std::string_view text)
{
    Completion c;
    const auto j = parseJsonQuietly(text);
    if (j.is_discarded() || !j.is_object()) {
        c.error = ServerError{"the server's answer is not JSON", "malformed_response", {}};
        return c;
    }
    if (auto error = OpenAiErrors::fromJson(j); error && !j.contains("choices")) {
        c.error = std::move(error);
        return c;
    }
    const auto choices = j.find("choices");
    if (choices == j.end() || !choices->is_array() || choices->empty() || !choices->front().is_object()) {
        c.error = ServerError{"the server's answer has no choices", "malformed_response", {}};
        return c;
    }
    const auto& choice = choices->front();
    if (const auto message = choice.find("message"); message != choice.end() && message->is_object()) {
        if (const auto content = message->find("content"); content != message->end() && content->is_string())
            c.text = content->get<std::string>();
    }
    if (const auto usage = j.find("usage"); usage != j.end() && usage->is_object()) {
        if (const auto in = usage->find("prompt_tokens"); in != usage->end() && in->is_number_integer())
            c.promptTokens = in->get<int64_t>();
        if (const auto out = usage->find("completion_tokens"); out != usage->end() && out->is_number_integer())
            c.completionTokens = out->get<int64_t>();
    }
    return c;
}

} // namespace conclave::ChatRequest
