#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace conclave {

// Pretty JSON in the one layout Conclave writes: 2-space indent, one key per
// line, short arrays of plain values on one line ("pos": [220, 120]), and a
// trailing newline. Deterministic, so files diff well in git.
std::string canonicalJsonText(const nlohmann::ordered_json& value);

} // namespace conclave
