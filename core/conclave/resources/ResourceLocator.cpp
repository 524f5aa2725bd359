#include "conclave/resources/ResourceLocator.h"

#include <cstdlib>

namespace conclave {

namespace {

bool looksLikeResources(const std::filesystem::path& dir)
{
    std::error_code ec;
    return std::filesystem::is_directory(dir / "examples", ec);
}

} // namespace

std::optional<std::filesystem::path> findResourcesDir(const std::filesystem::path& executable)
{
    if (const char* env = std::getenv("CONCLAVE_RESOURCES"); env && *env) {
        if (looksLikeResources(env))
            return std::filesystem::path(env);
    }
    std::error_code ec;
    const auto exe = std::filesystem::weakly_canonical(executable, ec);
    if (!ec && exe.has_parent_path()) {
        const auto installed = exe.parent_path().parent_path() / CONCLAVE_INSTALL_RESOURCES;
        if (looksLikeResources(installed))
            return installed;
    }
    if (looksLikeResources(CONCLAVE_SOURCE_RESOURCES))
        return std::filesystem::path(CONCLAVE_SOURCE_RESOURCES);
    return std::nullopt;
}

} // namespace conclave
