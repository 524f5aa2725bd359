#pragma once

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>

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

// "0.25", "1e-05": a number in the fewest digits that read back close
// (printf's %g, six significant digits), for messages and summaries.
inline std::string formatNumber(double value)
{
    char text[32];
    std::snprintf(text, sizeof text, "%g", value);
    return text;
}

// "0.83": a number with a fixed count of decimals, for notes and tables.
inline std::string fixedDigits(double value, int digits)
{
    char text[64];
    std::snprintf(text, sizeof text, "%.*f", digits, value);
    return text;
}

// The whole of `text` as a finite decimal number ("0.5", "-2", "1e-3"); unset
// for anything else (empty, trailing text, "nan", "inf").
inline std::optional<double> parseNumber(std::string_view text)
{
    double value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size() || !std::isfinite(value))
        return std::nullopt;
    return value;
}

} // namespace conclave
