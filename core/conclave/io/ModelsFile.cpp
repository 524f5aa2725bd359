#include "conclave/io/ModelsFile.h"

#include "conclave/io/CanonicalJson.h"
#include "conclave/io/FileIo.h"
#include "conclave/io/JsonText.h"
#include "conclave/io/TeamJson.h"

#include <algorithm>

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
    overlayField(below.difficultyWeight, above.difficultyWeight);
    overlayField(below.confidence, above.confidence);
    overlayField(below.synthesis, above.synthesis);
    overlayField(below.loadSlope, above.loadSlope);
    overlayField(below.retryRepeat, above.retryRepeat);
    overlayField(below.conformity, above.conformity);
    overlayField(below.repeatAgreement, above.repeatAgreement);
    overlayMap(below.skillsCi, above.skillsCi);
    overlayMap(below.trials, above.trials);
    overlayField(below.fitted, above.fitted);
    overlayField(below.calibratedFrom, above.calibratedFrom);
    if (above.extra.is_object()) {
        for (const auto& [key, value] : above.extra.items())
            below.extra[key] = value;
    }
    return below;
}

// An absent format is 1; a newer one than this build reads is refused, the
// rest of the file unread (its fields may mean something else).
bool readFormat(const nlohmann::json& doc, std::vector<Problem>& problems)
{
    const auto it = doc.find("format");
    if (it == doc.end())
        return true;
    const auto fail = [&](std::string message) {
        Problem p;
        p.pointer = "/format";
        p.message = std::move(message);
        problems.push_back(std::move(p));
        return false;
    };
    const std::string range = "a models file format from 1 to " + std::to_string(ModelsFile::kFormat);
    if (!it->is_number_integer())
        return fail("expected " + range + ", got " + describeJsonValue(*it));
    if (it->is_number_unsigned() ? it->get<uint64_t>() > uint64_t(ModelsFile::kFormat)
                                 : it->get<int64_t>() > ModelsFile::kFormat)
        return fail("models file format " + it->dump() + " is newer than this build reads (" +
                    std::to_string(ModelsFile::kFormat) + "); upgrade Conclave to read it");
    if (it->get<int64_t>() < 1)
        return fail("expected " + range + ", got " + it->dump());
    return true;
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
    if (!readFormat(doc, result.problems))
        return result;
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
    // Older readers see a file without the new fields as they always did.
    if (std::any_of(models.begin(), models.end(), [](const auto& m) { return m.second.usesFormat2Fields(); }))
        out["format"] = kFormat;
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
