#pragma once

#include "conclave/replay/CallRetiming.h"

#include <optional>
#include <string>
#include <string_view>

namespace conclave {

// A change to a call's latency, as `conclave whatif --speed NODE=CHANGE`
// writes it (docs/whatif.md):
//   -30%    latency × 0.7 (first token and streaming alike; -100% is instant)
//   x0.5    latency × 0.5
//   -200ms  200 ms off each call, not below 0
//   =300ms  each call takes 300 ms
// (ms or s). A call keeps its shape: its first token stays at the same share
// of its duration.
class LatencyChange {
public:
    enum class Kind { Scale, Subtract, Set };

    // Unset, with `error` saying what was expected, when `text` is none of the forms above.
    static std::optional<LatencyChange> parse(std::string_view text, std::string& error);
    // "X % faster", as a speed-up profile says it: latency × (1 − X/100).
    static LatencyChange faster(double percent);

    CallTimes apply(CallTimes times) const;
    // As written ("-30%", "x0.5", "-200ms", "=1.5s"); faster(25): "-25%". parse() reads it back.
    const std::string& text() const { return m_text; }

    Kind kind() const { return m_kind; }
    double factor() const { return m_factor; } // Scale
    int64_t us() const { return m_us; }        // Subtract, Set

private:
    LatencyChange(Kind kind, double factor, int64_t us, std::string text)
        : m_kind(kind), m_factor(factor), m_us(us), m_text(std::move(text))
    {
    }

    Kind m_kind;
    double m_factor = 1;
    int64_t m_us = 0;
    std::string m_text;
};

} // namespace conclave
