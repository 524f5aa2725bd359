#include "CliContext.h"

#include "conclave/resources/LocalModelCatalog.h"
#include "conclave/resources/ResourceLocator.h"

namespace conclave::cli {

ValidationContext CliContext::validationContext() const
{
    ValidationContext context;
    if (!resources)
        return context;
    const auto catalog = LocalModelCatalog::load(*resources / "models" / "local-models.json");
    if (catalog.catalog)
        context.localModels = catalog.catalog->names();
    return context;
}

std::optional<std::filesystem::path> resourcesForThisProcess()
{
    std::error_code ec;
    const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
    return findResourcesDir(ec ? std::filesystem::path() : exe);
}

} // namespace conclave::cli
