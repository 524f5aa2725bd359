#pragma once

#include "conclave/diagnostics/Problem.h"
#include "conclave/model/Team.h"

#include <filesystem>
#include <set>
#include <string>
#include <vector>

namespace conclave {

struct ValidationContext {
    // Models the local-moe backend knows (from local-models.json); when empty,
    // local model names are not checked.
    std::set<std::string> localModels;
    // The team file's folder, where a relative models_file is found; empty for a
    // team not read from a file: then it is relative to the current directory.
    std::filesystem::path teamFolder;
};

// Everything wrong with a team, errors and warnings, each with the JSON pointer
// of the field it concerns. A team with no errors can be run. Never throws.
std::vector<Problem> validate(const Team& team, const ValidationContext& context = {});

} // namespace conclave
