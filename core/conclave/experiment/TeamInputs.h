#pragma once

#include "conclave/model/Team.h"

#include <filesystem>
#include <string>
#include <vector>

namespace conclave {

// Something a team reads besides its own JSON when it runs: a file (a
// backend's models_file, a coordinator's scorer) or a stored record. Its bytes are part of what an
// experiment evaluated, so they are part of the experiment's identity.
struct TeamInput {
    std::string what;  // "models_file local" — which field reads it
    std::string where; // the path it was read from, as resolved (for messages, never hashed)
    std::string bytes; // its content; "(not readable)" when it could not be read
};

// Every input `team` reads, in a fixed order. A relative path is found in
// `teamFolder` (the team file's folder; empty: the current directory). This
// is the one list: whatever a later feature lets a team read joins it here.
std::vector<TeamInput> inputsRead(const Team& team, const std::filesystem::path& teamFolder);

// The text an input list is hashed as: "\nWHAT SIZE:BYTES" per input.
std::string inputsHashText(const std::vector<TeamInput>& inputs);

} // namespace conclave
