#include "conclave/resources/LocalModelCatalog.h"

#include "conclave/io/ModelsFile.h"

namespace conclave {

std::set<std::string> LocalModelCatalog::names() const
{
    std::set<std::string> out;
    for (const auto& [name, profile] : m_models)
        out.insert(name);
    return out;
}

namespace {

LocalModelCatalog::LoadResult fromModelsFile(ModelsFile::LoadResult read)
{
    LocalModelCatalog::LoadResult result;
    result.problems = std::move(read.problems);
    if (read.file)
        result.catalog = LocalModelCatalog(read.file->models());
    return result;
}

} // namespace

LocalModelCatalog::LoadResult LocalModelCatalog::fromJsonText(std::string_view text)
{
    return fromModelsFile(ModelsFile::fromJsonText(text));
}

LocalModelCatalog::LoadResult LocalModelCatalog::load(const std::filesystem::path& path)
{
    return fromModelsFile(ModelsFile::load(path));
}

} // namespace conclave
