#include "conclave/serve/AccessLog.h"

#include <chrono>
#include <cstdio>
#include <ctime>

namespace conclave {

namespace {

// "2026-12-07T13:05:09.123Z"
std::string utcNow()
{
    const auto now = std::chrono::system_clock::now();
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count();
    const std::time_t seconds = std::time_t(ms / 1000);
    std::tm tm{};
    gmtime_r(&seconds, &tm);
    char text[96];
    std::snprintf(text, sizeof text, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900, tm.tm_mon + 1,
                  tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, int(ms % 1000));
    return text;
}

} // namespace

void AccessLog::write(nlohmann::ordered_json line)
{
    if (!m_out)
        return;
    nlohmann::ordered_json out{{"time", utcNow()}};
    for (auto& [name, value] : line.items())
        out[name] = std::move(value);
    const std::string text = out.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
    std::lock_guard lock(m_mutex);
    *m_out << text << std::flush;
}

} // namespace conclave
