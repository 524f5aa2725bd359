#include "conclave/whatif/LatencyChange.h"

#include "conclave/util/NumberText.h"

#include <cmath>

namespace conclave {

namespace {

// A non-negative number with nothing after it (and no sign); unset otherwise.
std::optional<double> number(std::string_view text)
{
    if (text.empty() || text.front() == '-' || text.front() == '+')
        return std::nullopt;
    return parseNumber(text);
}

// "200ms", "1.5s": microseconds.
std::optional<int64_t> duration(std::string_view text)
{
    double scale = 0;
    if (text.ends_with("ms")) {
        scale = 1e3;
        text.remove_suffix(2);
    } else if (text.ends_with("s")) {
        scale = 1e6;
        text.remove_suffix(1);
    } else {
        return std::nullopt;
    }
    const auto value = number(text);
    if (!value || *value * scale > 1e15)
        return std::nullopt;
    return int64_t(std::llround(*value * scale));
}

int64_t scaled(int64_t us, double factor)
{
    return int64_t(std::llround(double(us) * factor));
}

} // namespace

std::optional<LatencyChange> LatencyChange::parse(std::string_view text, std::string& error)
{
    const std::string quoted = "\"" + std::string(text) + "\"";
    const auto expected = [&] {
        error = "expected -N%, xF, -Nms or =Nms (e.g. -30%, x0.5, -200ms, =300ms), got " + quoted;
        return std::nullopt;
    };
    if (text.starts_with('-') && text.ends_with('%')) {
        const auto percent = number(text.substr(1, text.size() - 2));
        if (!percent)
            return expected();
        if (*percent > 100) {
            error = "a call cannot be more than 100 % faster (instant), got " + quoted;
            return std::nullopt;
        }
        return LatencyChange(Kind::Scale, 1 - *percent / 100, 0, std::string(text));
    }
    if (text.starts_with('x')) {
        const auto factor = number(text.substr(1));
        if (!factor)
            return expected();
        if (*factor > 1000) {
            error = "a call can be at most 1000 times slower, got " + quoted;
            return std::nullopt;
        }
        return LatencyChange(Kind::Scale, *factor, 0, std::string(text));
    }
    if (text.starts_with('-') || text.starts_with('=')) {
        const auto us = duration(text.substr(1));
        if (!us)
            return expected();
        return LatencyChange(text.starts_with('-') ? Kind::Subtract : Kind::Set, 1, *us, std::string(text));
    }
    return expected();
}

LatencyChange LatencyChange::faster(double percent)
{
    return LatencyChange(Kind::Scale, std::max(0.0, 1 - percent / 100), 0, "-" + formatNumber(percent) + "%");
}

CallTimes LatencyChange::apply(CallTimes times) const
{
    if (times.doneUs < 0)
        return times;
    double factor = m_factor;
    if (m_kind != Kind::Scale) {
        const int64_t target = m_kind == Kind::Set ? m_us : std::max<int64_t>(0, times.doneUs - m_us);
        if (times.doneUs == 0)
            return {times.firstTokenUs < 0 ? -1 : target, target};
        factor = double(target) / double(times.doneUs);
    }
    const int64_t done = scaled(times.doneUs, factor);
    return {times.firstTokenUs < 0 ? -1 : std::min(done, scaled(times.firstTokenUs, factor)), done};
}

} // namespace conclave
