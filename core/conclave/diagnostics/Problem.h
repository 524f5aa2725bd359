#pragma once

#include "conclave/model/StrongId.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace conclave {

enum class Severity { Error, Warning };

// One thing wrong with a team or a team file, said where and what.
struct Problem {
    Severity severity = Severity::Error;
    std::string pointer; // JSON pointer into the team file; empty means the whole file
    std::string message;
    std::optional<NodeId> node; // the node it concerns, if any
    std::optional<size_t> edge; // the edge it concerns (index into Team::edges), if any
    int line = 0;               // 1-based; set for syntax errors only
    int column = 0;

    bool isError() const { return severity == Severity::Error; }

    friend bool operator==(const Problem&, const Problem&) = default;
};

bool hasErrors(const std::vector<Problem>& problems);

// "SOURCE:LINE:COL: message" for syntax errors, "SOURCE: /pointer: message"
// otherwise; a warning says so after the pointer.
std::string formatProblem(const Problem& problem, std::string_view source);
// The same without a source, for a message that names the file itself:
// "LINE:COL: message", "/pointer: message", or the bare message.
std::string problemText(const Problem& problem);

// Appends one reference token to a JSON pointer, escaping '~' and '/'.
std::string childPointer(std::string_view pointer, std::string_view key);
std::string childPointer(std::string_view pointer, size_t index);

} // namespace conclave
