#pragma once

#include "conclave/model/DefaultValues.h"

#include "conclave/model/Backend.h"

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace conclave {

// An openai backend block made ready to call: the key read from its
// environment variable, defaults applied. The key is only ever put into the
// Authorization header; nothing that prints settings may print it.
struct OpenAiSettings {
    std::string name;    // the backend's name in the team, for messages
    std::string baseUrl; // without a trailing slash
    std::string apiKey;  // empty: no Authorization header (local servers)
    std::map<std::string, std::string> headers;
    bool stream = true;
    std::string maxTokensParam = "max_tokens";
    std::string caFile;
    int64_t connectTimeoutMs = 10000;
    int64_t stallMs = 60000; // streamed calls: silence this long after the first byte is a stall
    std::map<std::string, Price> prices;

    static constexpr int64_t kDefaultMaxConcurrency = defaults::kOpenAiMaxConcurrency; // as docs/team-format.md says

    using Environment = std::function<std::optional<std::string>(const std::string& name)>;
    // The process environment.
    static std::optional<std::string> processEnvironment(const std::string& name);

    // Null with `error` set when the block cannot be called: no base_url, or
    // api_key_env names a variable that is not set (the message names the
    // variable, never a value).
    static std::optional<OpenAiSettings> fromBlock(const std::string& name, const Backend& block, std::string& error,
                                                   const Environment& environment = processEnvironment);

    std::string url(const std::string& path) const { return baseUrl + path; }
    // Every header of a request: JSON, the key, then the team's own.
    std::vector<std::string> requestHeaders(bool stream) const;
};

} // namespace conclave
