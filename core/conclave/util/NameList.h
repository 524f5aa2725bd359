#pragma once

#include <string>
#include <vector>

namespace conclave {

// "a, b, c": names for a message, in the order given.
inline std::string commaJoined(const std::vector<std::string>& names)
{
    std::string out;
    for (const auto& name : names)
        out += (out.empty() ? "" : ", ") + name;
    return out;
}

} // namespace conclave
