#pragma once

#include <string_view>

namespace conclave {

// The range of a numeric field and how messages describe it. One rule serves
// the reader's type errors and the validator's range errors, so both say the same.
struct FieldRule {
    std::string_view key;
    std::string_view expected; // "a positive integer"
    bool integer;
    double min;
    double max;
    bool minExclusive;

    bool accepts(double value) const { return (minExclusive ? value > min : value >= min) && value <= max; }
};

} // namespace conclave
