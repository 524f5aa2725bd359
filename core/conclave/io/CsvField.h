#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace conclave {

// The longest field a CSV reader accepts (TaskSet's CSV reader): a longer one
// is an error, not a task, whatever the file's size.
inline constexpr size_t kMaxCsvFieldBytes = size_t(1) << 20;

// One CSV field as RFC 4180 writes it: as it is, or in double quotes (with
// quotes doubled) when it holds a comma, a quote or a line break.
inline std::string csvField(std::string_view text)
{
    if (text.find_first_of(",\"\r\n") == std::string_view::npos)
        return std::string(text);
    std::string quoted = "\"";
    for (const char c : text) {
        if (c == '"')
            quoted += '"';
        quoted += c;
    }
    return quoted + '"';
}

} // namespace conclave
