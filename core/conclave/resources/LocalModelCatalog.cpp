#include "conclave/resources/LocalModelCatalog.h"

#include "conclave/io/FileIo.h"
#include "conclave/io/JsonText.h"
#include "conclave/io/TeamJson.h"

namespace conclave {

std::set<std::string> LocalModelCatalog::names() const
{
    std::set<std::string> out;
    for (const auto& [name, profile] : m_models)
        out.insert(name);
    return out;
}

LocalModelCatalog::LoadResult LocalModelCatalog::fromJsonText(std::string_view text)
{
    LoadResult result;
    auto parsed = parseJsonText(text);
    result.problems = std::move(parsed.problems);
    if (!parsed.value)
        return result;
    const auto& doc = *parsed.value;
    const auto models = doc.is_object() ? doc.find("models") : doc.end();
    if (!doc.is_object() || models == doc.end() || !models->is_object()) {
        Problem p;
        p.pointer = "/models";
        p.message = "expected an object of model profiles";
        result.problems.push_back(std::move(p));
        return result;
    }
    LocalModelCatalog catalog;
    for (const auto& [name, value] : models->items()) {
        if (auto profile = profileFromJson(value, childPointer("/models", name), result.problems))
            catalog.m_models.emplace(name, std::move(*profile));
    }
    if (!hasErrors(result.problems))
        result.catalog = std::move(catalog);
    return result;
}

LocalModelCatalog::LoadResult LocalModelCatalog::load(const std::filesystem::path& path)
{
    return parseTextFile<LoadResult>(path, JsonLimits{}.maxBytes,
                                     [](std::string_view text) { return fromJsonText(text); });
}

} // namespace conclave
