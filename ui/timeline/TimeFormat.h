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
    // A count with its noun: "1 task", "82 tasks" (English plurals; the studio has no translations).
    static QString count(int64_t n, const QString& one, const QString& many);
};

} // namespace conclave::ui
