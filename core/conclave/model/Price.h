#pragma once

#include <cstdint>

namespace conclave {

// USD per million tokens, in and out: a model's price, and the one formula
// that turns tokens into dollars (the backends' costOf, cost bounds).
struct Price {
    double input = 0;
    double output = 0;

    // (tokensIn · input + tokensOut · output) / 1,000,000.
    double costUsd(double tokensIn, double tokensOut) const { return (tokensIn * input + tokensOut * output) / 1e6; }

    friend bool operator==(const Price&, const Price&) = default;
};

} // namespace conclave
