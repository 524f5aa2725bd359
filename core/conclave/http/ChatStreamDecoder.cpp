#include "conclave/http/ChatStreamDecoder.h"

#include "conclave/io/JsonText.h"

#include <nlohmann/json.hpp>

namespace conclave {

namespace {

std::optional<int64_t> count(const nlohmann::json& usage, const char* name)
{
    const auto it = usage.find(name);
    if (it == usage.end() || !it->is_number_integer())
        return std::nullopt;
    return it->get<int64_t>();
}

} // namespace

std::string ChatStreamDecoder::take(const SseEvent& event)
{
    if (m_done || m_error || m_malformed)
        return {};
    if (event.data == "[DONE]") {
        m_done = true;
        return {};
    }
    const auto chunk = parseJsonQuietly(event.data);
    if (chunk.is_discarded() || !chunk.is_object()) {
        m_malformed = true;
        std::string start = event.data.substr(0, 80);
        for (auto& c : start) {
            if (c < 0x20 || c > 0x7e)
                c = '?';
        }
        m_error = ServerError{"the server sent a chunk that is not JSON: " + start, "malformed_chunk", {}};
        return {};
    }
    if (event.event == "error" || chunk.contains("error") || chunk.value("object", "") == "error") {
        m_error = OpenAiErrors::fromJson(chunk);
        if (!m_error)
            m_error = ServerError{"the server sent an error without a message", {}, {}};
        return {};
    }
    if (const auto usage = chunk.find("usage"); usage != chunk.end() && usage->is_object()) {
        m_promptTokens = count(*usage, "prompt_tokens");
        m_completionTokens = count(*usage, "completion_tokens");
    }
    const auto choices = chunk.find("choices");
    if (choices == chunk.end() || !choices->is_array() || choices->empty())
        return {};  // the usage chunk
    const auto& choice = choices->front();
    if (!choice.is_object())
        return {};
    if (const auto finish = choice.find("finish_reason"); finish != choice.end() && finish->is_string())
        m_finished = true;
    const auto delta = choice.find("delta");
    if (delta == choice.end() || !delta->is_object())
        return {};
    const auto content = delta->find("content");
    if (content == delta->end() || !content->is_string())
        return {};
    auto text = content->get<std::string>();
    if (!text.empty())
        ++m_deltas;
    return text;
}

} // namespace conclave
