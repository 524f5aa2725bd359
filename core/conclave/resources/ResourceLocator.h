#pragma once

#include <filesystem>
#include <optional>

namespace conclave {

// Finds the folder holding examples/, models/, schema/ and tasksets/:
// $CONCLAVE_RESOURCES if set, then ../share/conclave beside the executable
// (an installed or packaged Conclave), then the source tree it was built from.
std::optional<std::filesystem::path> findResourcesDir(const std::filesystem::path& executable);

} // namespace conclave
