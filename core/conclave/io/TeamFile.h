#pragma once

#include "conclave/io/TeamJson.h"

#include <filesystem>
#include <optional>
#include <string>

namespace conclave {

// Loads a team file. Problems that concern the file as a whole (missing,
// unreadable, too large) are reported like any other, with an empty pointer.
TeamLoadResult loadTeamFile(const std::filesystem::path& path);

// Saves a team atomically in canonical form. Returns an error message, or
// nullopt on success; on failure the file on disk is untouched.
std::optional<std::string> saveTeamFile(const Team& team, const std::filesystem::path& path);

} // namespace conclave
