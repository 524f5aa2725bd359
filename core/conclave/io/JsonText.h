#pragma once

#include "conclave/diagnostics/Problem.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

namespace conclave {

// Limits that keep a hostile file from costing more than a clear error.
struct JsonLimits {
    size_t maxBytes = 64u * 1024u * 1024u;
    size_t maxDepth = 256;
    size_t maxStringBytes = 1024u * 1024u;
};

struct ParsedJson {
    std::optional<nlohmann::json> value;
    std::vector<Problem> problems;  // syntax errors carry line and column
};

// Parses JSON text strictly (no comments), reporting where and what on any
// failure: empty input, a byte-order mark (a warning), nesting too deep,
// malformed syntax or UTF-8, strings longer than the limit. Never throws.
ParsedJson parseJsonText(std::string_view text, const JsonLimits& limits = {});

// For JSON nobody reads a message about — a server's reply, a column of the
// run store, a line already checked by parseJsonText: the same nesting limit,
// no messages. Malformed or too deeply nested text gives a discarded value
// (is_discarded()). Never throws; the one place besides parseJsonText where
// core parses JSON.
nlohmann::json parseJsonQuietly(std::string_view text, size_t maxDepth = JsonLimits{}.maxDepth);
nlohmann::ordered_json parseOrderedJsonQuietly(std::string_view text, size_t maxDepth = JsonLimits{}.maxDepth);

// Text made safe for a one-line message: control characters and bytes that
// are not UTF-8 become \xNN; valid UTF-8 stays as it is.
std::string printableText(std::string_view text);

// Line and column (1-based, column in bytes) of a byte offset into text.
std::pair<int, int> lineColumnAt(std::string_view text, size_t offset);

// A short, printable rendering of a JSON value for messages: "abc" (quoted and
// cut), 42, true, null, an object, an array.
std::string describeJsonValue(const nlohmann::json& value);

} // namespace conclave
