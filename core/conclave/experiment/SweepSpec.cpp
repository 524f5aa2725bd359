#include "conclave/experiment/SweepSpec.h"

#include "conclave/util/NumberText.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

namespace conclave {

namespace {

std::string_view trimmed(std::string_view text)
{
    const auto first = text.find_first_not_of(" \t");
    if (first == std::string_view::npos)
        return {};
    const auto last = text.find_last_not_of(" \t");
    return text.substr(first, last - first + 1);
}

std::vector<std::string_view> split(std::string_view text, char separator)
{
    std::vector<std::string_view> parts;
    size_t start = 0;
    while (true) {
        const auto at = text.find(separator, start);
        parts.push_back(text.substr(start, at == std::string_view::npos ? std::string_view::npos : at - start));
        if (at == std::string_view::npos)
            return parts;
        start = at + 1;
    }
}

// An integer literal ("-3", "12") as an integer, so a field such as top_k gets 2, not 2.0.
std::optional<int64_t> parseInteger(std::string_view text)
{
    int64_t value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size())
        return std::nullopt;
    return value;
}

SweepValue typedValue(std::string_view text)
{
    SweepValue out{nullptr, std::string(text)};
    if (const auto integer = parseInteger(text))
        out.value = *integer;
    else if (const auto number = parseNumber(text))
        out.value = *number;
    else if (text == "true" || text == "false")
        out.value = text == "true";
    else
        out.value = std::string(text);
    return out;
}

// The digits after the point a number is written with ("0.05" 2, "1e-3" 3, "20" 0).
int decimalsOf(std::string_view text)
{
    const auto e = text.find_first_of("eE");
    const auto mantissa = text.substr(0, e);
    const auto point = mantissa.find('.');
    int decimals = point == std::string_view::npos ? 0 : int(mantissa.size() - point - 1);
    if (e != std::string_view::npos) {
        int exponent = 0;
        const auto rest = text.substr(e + 1);
        std::from_chars(rest.data() + (rest.starts_with('+') ? 1 : 0), rest.data() + rest.size(), exponent);
        decimals -= exponent;
    }
    return std::max(decimals, 0);
}

std::optional<std::vector<SweepValue>> rangeValues(std::string_view values, const std::string& where,
                                                   std::string& error)
{
    const auto parts = split(values, ':');
    const char* names[] = {"lo", "hi", "step"};
    double number[3] = {0, 0, 0};
    std::string_view text[3];
    for (size_t i = 0; i < 3; ++i) {
        text[i] = trimmed(parts[i]);
        const auto parsed = parseNumber(text[i]);
        if (!parsed) {
            error = where + "a range is lo:hi:step, three numbers; its " + names[i] + " \"" + std::string(text[i]) +
                    "\" is not a number";
            return std::nullopt;
        }
        number[i] = *parsed;
    }
    const double lo = number[0], hi = number[1], step = number[2];
    if (step <= 0) {
        error = where + "the step " + std::string(text[2]) + " is not above 0";
        return std::nullopt;
    }
    if (hi < lo) {
        error = where + "hi " + std::string(text[1]) + " is below lo " + std::string(text[0]);
        return std::nullopt;
    }
    const int decimals = decimalsOf(text[2]);
    if (decimalsOf(text[0]) > decimals) {
        error = where + "lo " + std::string(text[0]) + " has more decimals than the step " + std::string(text[2]) +
                ", to which every value is rounded";
        return std::nullopt;
    }
    const double steps = std::floor((hi - lo) / step + 1e-3); // hi is in when within step/1000
    if (steps >= double(SweepSpec::kMaxVariants)) {
        error = where + "the range has more than " + groupThousands(SweepSpec::kMaxVariants) + " values";
        return std::nullopt;
    }
    std::vector<SweepValue> out;
    for (int64_t k = 0; k <= int64_t(steps); ++k) {
        char written[64];
        std::snprintf(written, sizeof written, "%.*f", decimals, lo + double(k) * step);
        std::string shown = written;
        if (shown.starts_with('-') && std::strtod(written, nullptr) == 0)
            shown.erase(0, 1); // -0.0 from a sum a hair below zero
        out.push_back(typedValue(shown));
    }
    return out;
}

std::optional<std::vector<SweepValue>> listValues(std::string_view values, const std::string& where, std::string& error)
{
    std::vector<SweepValue> out;
    const auto parts = split(values, ',');
    for (size_t i = 0; i < parts.size(); ++i) {
        const auto text = trimmed(parts[i]);
        if (text.empty()) {
            error = where + "value " + std::to_string(i + 1) + " of " + std::to_string(parts.size()) + " is empty";
            return std::nullopt;
        }
        auto value = typedValue(text);
        for (const auto& earlier : out) {
            if (earlier.value == value.value) {
                error = where + "\"" + earlier.text + "\" and \"" + value.text +
                        "\" are one value; each variant needs its own";
                return std::nullopt;
            }
        }
        out.push_back(std::move(value));
    }
    return out;
}

} // namespace

std::optional<SweepAxis> SweepSpec::parseAxis(std::string_view flag, std::string& error)
{
    const std::string where = "--vary '" + std::string(flag) + "': ";
    const auto equals = flag.find('=');
    if (equals == std::string_view::npos || trimmed(flag.substr(0, equals)).empty()) {
        error = where + "expected PATH=v1,v2,… or PATH=lo:hi:step";
        return std::nullopt;
    }
    SweepAxis axis;
    axis.flag = std::string(flag);
    axis.path = std::string(trimmed(flag.substr(0, equals)));
    for (const auto part : split(axis.path, '.')) {
        if (part.empty()) {
            error = where + "the path \"" + axis.path + "\" has an empty part";
            return std::nullopt;
        }
    }
    const auto values = flag.substr(equals + 1);
    if (trimmed(values).empty()) {
        error = where + "no values after '='";
        return std::nullopt;
    }
    const bool range = values.find(',') == std::string_view::npos && split(values, ':').size() == 3;
    auto parsed = range ? rangeValues(values, where, error) : listValues(values, where, error);
    if (!parsed)
        return std::nullopt;
    axis.values = std::move(*parsed);
    return axis;
}

std::optional<SweepSpec> SweepSpec::parse(const std::vector<std::string>& flags, std::string& error)
{
    SweepSpec spec;
    for (const auto& flag : flags) {
        auto axis = parseAxis(flag, error);
        if (!axis)
            return std::nullopt;
        for (const auto& earlier : spec.m_axes) {
            if (earlier.path == axis->path) {
                error = "--vary '" + flag + "': " + axis->path + " is varied by --vary '" + earlier.flag + "' already";
                return std::nullopt;
            }
        }
        spec.m_axes.push_back(std::move(*axis));
    }
    return spec;
}

std::vector<std::string> SweepSpec::flags() const
{
    std::vector<std::string> out;
    for (const auto& axis : m_axes)
        out.push_back(axis.flag);
    return out;
}

size_t SweepSpec::variantCount() const
{
    if (m_axes.empty())
        return 0;
    size_t count = 1;
    for (const auto& axis : m_axes) {
        count *= axis.values.size();
        if (count > kMaxVariants)
            return kMaxVariants + 1;
    }
    return count;
}

std::string SweepSpec::shape() const
{
    std::string out;
    for (const auto& axis : m_axes)
        out += (out.empty() ? "" : " x ") + std::to_string(axis.values.size());
    return out;
}

std::vector<std::vector<SweepParameter>> SweepSpec::grid() const
{
    std::vector<std::vector<SweepParameter>> out;
    const auto count = variantCount();
    if (count == 0 || count > kMaxVariants)
        return out;
    std::vector<size_t> at(m_axes.size(), 0); // an odometer, the last flag turning fastest
    for (size_t n = 0; n < count; ++n) {
        std::vector<SweepParameter> parameters;
        for (size_t a = 0; a < m_axes.size(); ++a) {
            const auto& value = m_axes[a].values[at[a]];
            parameters.push_back({m_axes[a].path, value.value, value.text});
        }
        out.push_back(std::move(parameters));
        for (size_t a = m_axes.size(); a-- > 0;) {
            if (++at[a] < m_axes[a].values.size())
                break;
            at[a] = 0;
        }
    }
    return out;
}

std::string SweepSpec::suffix(const std::vector<SweepParameter>& parameters)
{
    if (parameters.empty())
        return {};
    std::string out = " [";
    for (size_t i = 0; i < parameters.size(); ++i)
        out += (i ? ", " : "") + parameters[i].path + "=" + parameters[i].text;
    return out + "]";
}

} // namespace conclave
