#include "conclave/http/OpenAiSettings.h"

#include <cstdlib>

namespace conclave {

std::optional<std::string> OpenAiSettings::processEnvironment(const std::string& name)
{
    const char* value = std::getenv(name.c_str());
    if (!value)
        return std::nullopt;
    return std::string(value);
}

std::optional<OpenAiSettings> OpenAiSettings::fromBlock(const std::string& name, const Backend& block,
                                                        std::string& error, const Environment& environment)
{
    OpenAiSettings s;
    s.name = name;
    s.baseUrl = block.baseUrl.value_or("");
    while (!s.baseUrl.empty() && s.baseUrl.back() == '/')
        s.baseUrl.pop_back();
    if (s.baseUrl.empty()) {
        error = "backend \"" + name + "\" has no base_url";
        return std::nullopt;
    }
    if (block.apiKeyEnv && !block.apiKeyEnv->empty()) {
        const auto key = environment(*block.apiKeyEnv);
        if (!key || key->empty()) {
            error = "backend \"" + name + "\" reads its API key from the environment variable " + *block.apiKeyEnv +
                    ", which is " + (key ? "empty" : "not set");
            return std::nullopt;
        }
        s.apiKey = *key;
    }
    s.headers = block.headers.value_or(std::map<std::string, std::string>{});
    s.stream = block.stream.value_or(true);
    s.maxTokensParam = block.maxTokensParam.value_or("max_tokens");
    s.caFile = block.caFile.value_or("");
    s.connectTimeoutMs = block.connectTimeoutMs.value_or(10000);
    s.prices = block.prices.value_or(std::map<std::string, Price>{});
    return s;
}

std::vector<std::string> OpenAiSettings::requestHeaders(bool streamed) const
{
    std::vector<std::string> out{"Content-Type: application/json",
                                 streamed ? "Accept: text/event-stream" : "Accept: application/json",
                                 "Expect:"};  // no 100-continue round trip for large prompts
    if (!apiKey.empty())
        out.push_back("Authorization: Bearer " + apiKey);
    for (const auto& [header, value] : headers) {
        if (header.find_first_of("\r\n:") == std::string::npos && value.find_first_of("\r\n") == std::string::npos)
            out.push_back(header + ": " + value);  // a line break would smuggle in another header
    }
    return out;
}

} // namespace conclave
