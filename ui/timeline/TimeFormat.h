#pragma once

#include <QString>

#include <cstdint>

namespace conclave::ui {

// Durations and instants as the timeline, the summary and the compare table print them.
class TimeFormat {
public:
    // "850 µs", "12.3 ms", "4.56 s", "2 min 05 s".
    static QString duration(int64_t us);
    // A signed difference: "+1.20 s", "-35.0 ms", "0".
    static QString delta(int64_t us);
    static QString cost(double usd);
};

} // namespace conclave::ui
