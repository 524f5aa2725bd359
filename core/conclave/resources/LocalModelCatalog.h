#pragma once

#include "conclave/diagnostics/Problem.h"
#include "conclave/model/Backend.h"

#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace conclave {

// The simulated models of the local-moe backend, as shipped in
// resources/models/local-models.json, a ModelsFile.
class LocalModelCatalog {
public:
    struct LoadResult;

    static LoadResult load(const std::filesystem::path& path);
    static LoadResult fromJsonText(std::string_view text);

    LocalModelCatalog() = default;
    explicit LocalModelCatalog(std::map<std::string, ModelProfile> models) : m_models(std::move(models)) {}

    const std::map<std::string, ModelProfile>& models() const { return m_models; }
    std::set<std::string> names() const;

private:
    std::map<std::string, ModelProfile> m_models;
};

struct LocalModelCatalog::LoadResult {
    std::optional<LocalModelCatalog> catalog;
    std::vector<Problem> problems;
};

} // namespace conclave
