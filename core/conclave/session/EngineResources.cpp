#include "conclave/session/EngineResources.h"

#include "conclave/resources/LocalModelCatalog.h"

namespace conclave {

EngineResources EngineResources::load(const std::filesystem::path& dir, std::vector<std::string>& errors)
{
    EngineResources r;
    const auto describe = [](const std::filesystem::path& file, const std::vector<Problem>& problems) {
        for (const auto& p : problems) {
            if (p.isError())
                return formatProblem(p, file.string());
        }
        return file.string() + ": cannot be loaded";
    };
    const auto modelsPath = dir / "models" / "local-models.json";
    auto catalog = LocalModelCatalog::load(modelsPath);
    if (catalog.catalog)
        r.localModels = catalog.catalog->models();
    else
        errors.push_back(describe(modelsPath, catalog.problems));
    const auto gatePath = dir / "models" / "gate.json";
    auto gate = Gate::load(gatePath);
    if (gate.gate)
        r.gate = std::make_shared<const Gate>(std::move(*gate.gate));
    else
        errors.push_back(describe(gatePath, gate.problems));
    auto tasks = TaskSet::loadFolder(dir / "tasksets");
    if (tasks.tasks)
        r.tasks = std::make_shared<const TaskSet>(std::move(*tasks.tasks));
    else
        errors.push_back(describe(dir / "tasksets", tasks.problems));
    return r;
}

} // namespace conclave
