#include "conclave/io/ModelsFile.h"

#include "conclave/io/CanonicalJson.h"
#include "conclave/io/FileIo.h"
#include "conclave/io/JsonText.h"
#include "conclave/io/TeamJson.h"

namespace conclave {

namespace {

template <class T> void overlayField(std::optional<T>& below, const std::optional<T>& above)
{
    if (above)
        below = above;
}

template <class Map> void overlayMap(std::optional<Map>& below, const std::optional<Map>& above)
{
    if (!above)
        return;
    if (!below)
        below.emplace();
    for (const auto& [key, value] : *above)
        (*below)[key] = value;
}

ModelProfile overlayProfile(ModelProfile below, const ModelProfile& above)
{
    overlayMap(below.skills, above.skills);
    overlayField(below.ttftMs, above.ttftMs);
    overlayField(below.tokensPerS, above.tokensPerS);
    overlayField(below.outputTokens, above.outputTokens);
    overlayField(below.pricePerMtok, above.pricePerMtok);
    overlayField(below.contextTokens, above.contextTokens);
    overlayField(below.failureRate, above.failureRate);
    overlayField(below.errorAgreement, above.errorAgreement);
    overlayMap(below.skillsCi, above.skillsCi);
    overlayMap(below.trials, above.trials);
    if (above.extra.is_object()) {
        for (const auto& [key, value] : above.extra.items())
            below.extra[key] = value;
    }
    return below;
}

} // namespace

ModelsFile::LoadResult ModelsFile::fromJsonText(std::string_view text)
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
    ModelsFile file;
    for (const auto& [name, value] : models->items()) {
        if (auto profile = profileFromJson(value, childPointer("/models", name), result.problems))
            file.m_models.emplace(name, std::move(*profile));
    }
    if (!hasErrors(result.problems))
        result.file = std::move(file);
    return result;
}

ModelsFile::LoadResult ModelsFile::load(const std::filesystem::path& path)
{
    return parseTextFile<LoadResult>(path, JsonLimits{}.maxBytes,
                                     [](std::string_view text) { return fromJsonText(text); });
}

std::string ModelsFile::toJsonText(const Profiles& models)
{
    nlohmann::ordered_json profiles = nlohmann::ordered_json::object();
    for (const auto& [name, profile] : models)
        profiles[name] = profileToJson(profile);
    nlohmann::ordered_json out = nlohmann::ordered_json::object();
    out["models"] = std::move(profiles);
    return canonicalJsonText(out);
}

std::filesystem::path ModelsFile::resolve(const std::string& modelsFile, const std::filesystem::path& teamFolder)
{
    const std::filesystem::path path(modelsFile);
    if (path.is_absolute() || teamFolder.empty())
        return path;
    return (teamFolder / path).lexically_normal();
}

ModelsFile::Profiles ModelsFile::overlay(const Profiles& below, const Profiles& above)
{
    Profiles out = below;
    for (const auto& [name, profile] : above) {
        const auto it = out.find(name);
        if (it == out.end())
            out.emplace(name, profile);
        else
            it->second = overlayProfile(it->second, profile);
    }
    return out;
}

} // namespace conclave
