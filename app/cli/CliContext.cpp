#include "CliContext.h"

#include <ostream>

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

std::optional<EngineResources> CliContext::engineResources() const
{
    if (!resources) {
        err << "conclave: cannot find the resources folder (set CONCLAVE_RESOURCES)\n";
        return std::nullopt;
    }
    std::vector<std::string> errors;
    auto loaded = EngineResources::load(*resources, errors);
    for (const auto& e : errors)
        err << e << '\n';
    if (!errors.empty())
        return std::nullopt;
    return loaded;
}

std::unique_ptr<RunStore> CliContext::openStore(const std::optional<std::string>& db, RunStore::Access access,
                                                std::string_view prefix) const
{
    RunStore::Options options;
    options.access = access;
    auto opened = RunStore::open(RunStore::resolvePath(db), options);
    if (!opened.store)
        err << prefix << ": " << opened.error << '\n';
    return std::move(opened.store);
}

std::unique_ptr<RunQueries> CliContext::openReader(const std::optional<std::string>& db, std::string_view prefix) const
{
    const auto store = openStore(db, RunStore::Access::Read, prefix);
    if (!store)
        return nullptr;
    std::string error;
    auto reader = store->reader(error);
    if (!reader)
        err << prefix << ": " << error << '\n';
    return reader;
}

} // namespace conclave::cli
