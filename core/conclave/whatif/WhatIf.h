#pragma once

#include "conclave/whatif/SpeedChanges.h"
#include "conclave/whatif/WhatIfReport.h"

#include <filesystem>
#include <optional>
#include <string>

namespace conclave {

class Engine;
class RunQueries;

// `conclave whatif RUN_ID --speed NODE=CHANGE…` (docs/whatif.md): the stored
// run re-run on the simulated clock with its own team, input and seed, every
// call replayed from the run's own attempts (Engine::prepareReplay) with the
// changed nodes' latencies changed, and the timing rules deciding again.
// Refused for a run still running or interrupted, and for a change to a node
// the run's team does not have.
class WhatIf {
public:
    static std::optional<WhatIfReport> project(Engine& engine, RunQueries& reader, const std::filesystem::path& db,
                                               const std::string& runIdOrPrefix, const SpeedChanges& speeds,
                                               std::string& error);
};

} // namespace conclave
