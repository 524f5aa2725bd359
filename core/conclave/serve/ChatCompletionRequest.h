#pragma once

#include "conclave/serve/ServeError.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace conclave {

// How a conversation becomes a run's input (docs/serve.md, "Input"):
// the last user message alone (system messages dropped), or the whole
// conversation rendered as "Role: text" paragraphs.
enum class ServeInput { LastUser, Transcript };

std::string_view toString(ServeInput input);
std::optional<ServeInput> serveInputFromString(std::string_view text);

struct ChatMessage {
    std::string role; // system, developer, user, assistant or tool
    std::string content;
};

// A POST /v1/chat/completions body as a served team reads it. Fields a team
// has its own settings for (temperature, max_tokens, top_p, …) are accepted
// and listed in `ignored`; what a team cannot honour (n > 1, tools) is refused.
struct ChatCompletionRequest {
    std::string model;
    std::vector<ChatMessage> messages;
    bool stream = false;
    bool includeUsage = false; // stream_options.include_usage
    std::optional<uint64_t> seed;
    std::vector<std::string> ignored; // body fields present and not used, in name order

    using Parsed = std::variant<ChatCompletionRequest, ServeError>;
    static Parsed parse(std::string_view body);

    // The run's input; an error when the conversation has nothing to run on.
    std::variant<std::string, ServeError> input(ServeInput mode) const;
};

} // namespace conclave
