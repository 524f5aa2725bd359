#pragma once

#include "conclave/diagnostics/ProblemSink.h"
#include "conclave/model/Team.h"
#include "conclave/validate/Validator.h"

namespace conclave::checks {

// Values in range, required fields, backends and models, secrets, unknown keys.
void checkFields(const Team& team, const ValidationContext& context, ProblemSink& sink);

// Wiring: ids, edges, the input and outputs, cycles, reachability, routes, templates.
void checkGraph(const Team& team, ProblemSink& sink);

} // namespace conclave::checks
