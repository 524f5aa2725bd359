#pragma once

#include <algorithm>
#include <cctype>
#include <string>
#include <string_view>

namespace conclave {

// ASCII lower case, for case-insensitive matching of keys, labels and keywords.
inline std::string toLowerAscii(std::string_view text)
{
    std::string out(text);
    std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return out;
}

} // namespace conclave
