#pragma once

#include "conclave/analysis/ExperimentStats.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <optional>

namespace conclave {

// How reports write figures in JSON, one way for every report (experiments,
// fidelity): a number that is not finite, or unset, is null.
namespace ReportJson {

inline nlohmann::ordered_json number(double value)
{
    return std::isfinite(value) ? nlohmann::ordered_json(value) : nlohmann::ordered_json();
}

inline nlohmann::ordered_json optionalNumber(const std::optional<double>& value)
{
    return value ? number(*value) : nlohmann::ordered_json();
}

// [lo, hi], each a number or null.
inline nlohmann::ordered_json interval(const Interval& ci)
{
    return nlohmann::ordered_json::array({number(ci.lo), number(ci.hi)});
}

} // namespace ReportJson

} // namespace conclave
