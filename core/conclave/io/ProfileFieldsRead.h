#pragma once

#include "conclave/diagnostics/Problem.h"
#include "conclave/io/JsonFieldReader.h"
#include "conclave/model/Backend.h"

#include <optional>
#include <vector>

namespace conclave {

// Readers of a model profile's structured fields (confidence, synthesis,
// calibrated_from), for profileFromJson. Each reads the shape and types only
// (the validator checks ranges), reports a problem at the exact pointer, and
// returns nullopt when the key is absent or malformed. Unknown keys inside
// them are errors: they are small, closed records.
std::optional<ConfidenceProfile> readConfidence(JsonFieldReader& profile, std::vector<Problem>& problems);
std::optional<SynthesisProfile> readSynthesis(JsonFieldReader& profile, std::vector<Problem>& problems);
std::optional<std::vector<CalibrationSource>> readCalibratedFrom(JsonFieldReader& profile,
                                                                 std::vector<Problem>& problems);

} // namespace conclave
