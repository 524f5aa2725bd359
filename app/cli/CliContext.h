#pragma once

#include "conclave/session/Engine.h"
#include "conclave/validate/Validator.h"

#include <filesystem>
#include <iosfwd>
#include <optional>

namespace conclave::cli {

// What every command needs from the process: where output goes and where
// the shipped resources are.
struct CliContext {
    std::ostream& out;
    std::ostream& err;
    std::optional<std::filesystem::path> resources;

    // Validation against the shipped local models, when they can be found.
    ValidationContext validationContext() const;
    // The engine's resources (models, gate, task sets); on failure says why on err and returns nothing.
    std::optional<EngineResources> engineResources() const;
};

std::optional<std::filesystem::path> resourcesForThisProcess();

enum ExitCode : int { kExitOk = 0, kExitFailed = 1, kExitBadInput = 2 };

} // namespace conclave::cli
