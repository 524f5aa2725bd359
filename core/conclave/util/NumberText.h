#pragma once

#include <cstdint>
#include <string>

namespace conclave {

// "99,997": a count as a reader sees it in a note or a message, thousands
// separated by commas whatever the locale, so text stays the same everywhere.
inline std::string groupThousands(uint64_t n)
{
    std::string digits = std::to_string(n);
    std::string out;
    out.reserve(digits.size() + digits.size() / 3);
    for (size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0)
            out += ',';
        out += digits[i];
    }
    return out;
}

} // namespace conclave
