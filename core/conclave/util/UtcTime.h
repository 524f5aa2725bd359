#pragma once

#include <charconv>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string_view>

namespace conclave {

// A UTC instant written as people write it on a command line: a date
// `YYYY-MM-DD` (its midnight) or a date-time `YYYY-MM-DDTHH:MM:SSZ`. Nothing
// else is read: no offsets, no fractions, no local time, no missing fields.
class UtcTime {
public:
    // Milliseconds since the Unix epoch; unset for any other text or an
    // impossible date or time (2024-02-30, 24:00:00).
    static std::optional<int64_t> parseMs(std::string_view text)
    {
        if (text.size() != 10 && text.size() != 20)
            return std::nullopt;
        const auto number = [text](size_t at, size_t length) -> std::optional<int> {
            int value = 0;
            const char* first = text.data() + at;
            const char* last = first + length;
            for (const char* c = first; c != last; ++c) {
                if (*c < '0' || *c > '9')
                    return std::nullopt;
            }
            std::from_chars(first, last, value);
            return value;
        };
        const auto at = [text](size_t i, char c) { return text[i] == c; };
        if (!at(4, '-') || !at(7, '-'))
            return std::nullopt;
        const auto year = number(0, 4);
        const auto month = number(5, 2);
        const auto day = number(8, 2);
        if (!year || !month || !day)
            return std::nullopt;
        const std::chrono::year_month_day date{std::chrono::year(*year), std::chrono::month(unsigned(*month)),
                                               std::chrono::day(unsigned(*day))};
        if (!date.ok())
            return std::nullopt;
        int64_t seconds = 0;
        if (text.size() == 20) {
            if (!at(10, 'T') || !at(13, ':') || !at(16, ':') || !at(19, 'Z'))
                return std::nullopt;
            const auto hours = number(11, 2);
            const auto minutes = number(14, 2);
            const auto secs = number(17, 2);
            if (!hours || !minutes || !secs || *hours > 23 || *minutes > 59 || *secs > 59)
                return std::nullopt;
            seconds = int64_t(*hours) * 3600 + int64_t(*minutes) * 60 + *secs;
        }
        const auto days = std::chrono::sys_days(date).time_since_epoch().count();
        return (int64_t(days) * 86400 + seconds) * 1000;
    }
};

} // namespace conclave
