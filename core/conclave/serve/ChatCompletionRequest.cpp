#include "conclave/serve/ChatCompletionRequest.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>

namespace conclave {

namespace {

using nlohmann::json;

constexpr std::array<std::string_view, 5> kRoles{"system", "developer", "user", "assistant", "tool"};

// nlohmann's message without its "[json.exception.parse_error.101] " prefix.
std::string parseMessage(const std::string& what)
{
    const auto close = what.find("] ");
    return close == std::string::npos ? what : what.substr(close + 2);
}

std::variant<std::string, ServeError> contentText(const json& content, const std::string& where)
{
    if (content.is_null())
        return std::string();
    if (content.is_string())
        return content.get<std::string>();
    if (!content.is_array())
        return ServeError::badRequest(where + ": expected a string or an array of text parts", where);
    std::string text;
    for (size_t i = 0; i < content.size(); ++i) {
        const auto& part = content[i];
        const std::string at = where + "[" + std::to_string(i) + "]";
        if (!part.is_object() || !part.contains("type") || !part["type"].is_string())
            return ServeError::badRequest(at + ": expected an object with a \"type\"", at);
        const auto type = part["type"].get<std::string>();
        if (type != "text")
            return ServeError::unsupported(at + ": parts of type \"" + type + "\" (a served team reads text)", at);
        if (!part.contains("text") || !part["text"].is_string())
            return ServeError::badRequest(at + ".text: expected a string", at + ".text");
        if (!text.empty())
            text += "\n";
        text += part["text"].get<std::string>();
    }
    return text;
}

std::string capitalised(std::string word)
{
    if (!word.empty() && word[0] >= 'a' && word[0] <= 'z')
        word[0] = char(word[0] - 'a' + 'A');
    return word;
}

} // namespace

std::string_view toString(ServeInput input)
{
    return input == ServeInput::Transcript ? "transcript" : "last-user";
}

std::optional<ServeInput> serveInputFromString(std::string_view text)
{
    if (text == "last-user")
        return ServeInput::LastUser;
    if (text == "transcript")
        return ServeInput::Transcript;
    return std::nullopt;
}

ChatCompletionRequest::Parsed ChatCompletionRequest::parse(std::string_view body)
{
    json j;
    try {
        j = json::parse(body);
    } catch (const json::parse_error& e) {
        return ServeError::badRequest("the body is not valid JSON: " + parseMessage(e.what()));
    }
    if (!j.is_object())
        return ServeError::badRequest("the body must be a JSON object");
    ChatCompletionRequest request;
    if (!j.contains("model"))
        return ServeError::badRequest("model: required", "model");
    if (!j["model"].is_string())
        return ServeError::badRequest("model: expected a string", "model");
    request.model = j["model"].get<std::string>();

    if (!j.contains("messages") || !j["messages"].is_array() || j["messages"].empty())
        return ServeError::badRequest("messages: expected a non-empty array of messages", "messages");
    const auto& messages = j["messages"];
    for (size_t i = 0; i < messages.size(); ++i) {
        const auto& m = messages[i];
        const std::string at = "messages[" + std::to_string(i) + "]";
        if (!m.is_object())
            return ServeError::badRequest(at + ": expected an object with a role and content", at);
        if (!m.contains("role") || !m["role"].is_string())
            return ServeError::badRequest(at + ".role: expected a string", at + ".role");
        ChatMessage message;
        message.role = m["role"].get<std::string>();
        if (std::find(kRoles.begin(), kRoles.end(), message.role) == kRoles.end())
            return ServeError::badRequest(at + ".role: expected system, developer, user, assistant or tool, got \"" +
                                              message.role + "\"",
                                          at + ".role");
        auto content = contentText(m.contains("content") ? m["content"] : json(), at + ".content");
        if (auto* error = std::get_if<ServeError>(&content))
            return std::move(*error);
        message.content = std::move(std::get<std::string>(content));
        request.messages.push_back(std::move(message));
    }

    if (j.contains("stream") && !j["stream"].is_null()) {
        if (!j["stream"].is_boolean())
            return ServeError::badRequest("stream: expected true or false", "stream");
        request.stream = j["stream"].get<bool>();
    }
    if (j.contains("stream_options") && !j["stream_options"].is_null()) {
        const auto& options = j["stream_options"];
        if (!options.is_object())
            return ServeError::badRequest("stream_options: expected an object", "stream_options");
        if (options.contains("include_usage")) {
            if (!options["include_usage"].is_boolean())
                return ServeError::badRequest("stream_options.include_usage: expected true or false",
                                              "stream_options.include_usage");
            request.includeUsage = options["include_usage"].get<bool>();
        }
    }
    if (j.contains("seed") && !j["seed"].is_null()) {
        if (!j["seed"].is_number_integer())
            return ServeError::badRequest("seed: expected an integer", "seed");
        request.seed = j["seed"].is_number_unsigned() ? j["seed"].get<uint64_t>()
                                                      : static_cast<uint64_t>(j["seed"].get<int64_t>());
    }
    if (j.contains("n") && !j["n"].is_null()) {
        if (!j["n"].is_number_integer() || j["n"].get<int64_t>() < 1)
            return ServeError::badRequest("n: expected a whole number of at least 1", "n");
        if (j["n"].get<int64_t>() > 1)
            return ServeError::unsupported("n > 1 (a team gives one answer a request)", "n");
    }
    for (const char* field : {"tools", "functions"}) {
        if (j.contains(field) && !j[field].is_null() && !(j[field].is_array() && j[field].empty()))
            return ServeError::unsupported(std::string(field) + " (a served team calls no tools of the client's)",
                                           field);
    }
    for (const auto& [name, value] : j.items()) {
        static const std::array<std::string_view, 7> used{"model", "messages", "stream", "stream_options",
                                                          "seed", "n", "tools"};
        if (std::find(used.begin(), used.end(), name) == used.end() && !(name == "functions"))
            request.ignored.push_back(name);
    }
    return request;
}

std::variant<std::string, ServeError> ChatCompletionRequest::input(ServeInput mode) const
{
    if (mode == ServeInput::LastUser) {
        for (auto it = messages.rbegin(); it != messages.rend(); ++it) {
            if (it->role == "user")
                return it->content;
        }
        return ServeError::badRequest("messages: no message has the role \"user\"", "messages");
    }
    std::string text;
    for (const auto& m : messages) {
        if (!text.empty())
            text += "\n\n";
        text += (m.role == "developer" ? std::string("System") : capitalised(m.role)) + ": " + m.content;
    }
    return text;
}

} // namespace conclave
