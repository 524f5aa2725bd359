#pragma once

#include <cstdint>
#include <cstdio>
#include <string>

namespace conclave::whatif_text {

// "1.150 s": a wall or a saving (negative when a change made it later), as the what-if reports print them.
inline std::string seconds(int64_t us)
{
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.3f s", double(us) / 1e6);
    return buffer;
}

// "38.6 %": `part` of `whole` (0 when whole is not positive).
inline std::string percentOf(int64_t part, int64_t whole)
{
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.1f %%", whole > 0 ? 100.0 * double(part) / double(whole) : 0.0);
    return buffer;
}

} // namespace conclave::whatif_text
