#pragma once

#include "conclave/io/ModelsFile.h"
#include "conclave/model/Team.h"

#include <optional>
#include <string>
#include <vector>

namespace conclave {

// The teams `conclave fidelity` predicts a measured design with: the same
// nodes, edges and settings, every backend replaced.
class FidelityTwin {
public:
    // Every backend a local-moe simulator of the calibrated profiles (inline,
    // so a prediction stands on them alone), keeping its max_concurrency.
    // Unset, with `why`, for a design that already replays recordings.
    static std::optional<Team> simulated(const Team& measured, const ModelsFile::Profiles& calibrated,
                                         std::string& why);
    // Every backend a recorded one replaying `experiments` without the trials
    // of `excluded` (none: every recorded call); what was not recorded is
    // simulated from the calibrated profiles.
    static std::optional<Team> replayed(const Team& measured, const std::vector<std::string>& experiments,
                                        const std::vector<std::string>& excluded,
                                        const ModelsFile::Profiles& calibrated, std::string& why);
    // Whether a design combines calls: two or more nodes call a model, or a
    // coordinator runs rounds of its members.
    static bool combines(const Team& team);
};

} // namespace conclave
