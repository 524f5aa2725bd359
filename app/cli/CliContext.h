#pragma once

#include "conclave/session/Engine.h"
#include "conclave/store/RunStore.h"
#include "conclave/validate/Validator.h"

#include <filesystem>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

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
    // The run store --db names (else $CONCLAVE_DB, else the default file), opened with
    // `access`: Read for the commands that only read it, which create nothing. On
    // failure says "PREFIX: FILE: what is wrong" on err and returns nothing.
    std::unique_ptr<RunStore> openStore(const std::optional<std::string>& db, RunStore::Access access,
                                        std::string_view prefix) const;
    // For the commands that only read the store (they create none): openStore with Read, then its
    // queries; on failure says "PREFIX: FILE: what is wrong" on err and returns nothing.
    std::unique_ptr<RunQueries> openReader(const std::optional<std::string>& db, std::string_view prefix) const;
};

std::optional<std::filesystem::path> resourcesForThisProcess();

enum ExitCode : int { kExitOk = 0, kExitFailed = 1, kExitBadInput = 2 };

} // namespace conclave::cli
