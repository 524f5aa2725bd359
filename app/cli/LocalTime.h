#pragma once

#include <cstdint>
#include <ctime>
#include <string>

namespace conclave::cli {

// "2026-12-07 20:45": a stored Unix time in ms as lists show it, in the machine's time zone.
inline std::string localTime(int64_t unixMs)
{
    const std::time_t seconds = std::time_t(unixMs / 1000);
    std::tm tm{};
    localtime_r(&seconds, &tm);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%d %H:%M", &tm);
    return text;
}

} // namespace conclave::cli
