#include "conclave/engine/DeterministicRandom.h"

#include <cmath>
#include <numbers>

namespace conclave {

double DeterministicRandom::normal(uint64_t key, uint64_t stream)
{
    const double u1 = std::max(unit(key, stream * 2 + 1), 1e-12);
    const double u2 = unit(key, stream * 2 + 2);
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
}

} // namespace conclave
