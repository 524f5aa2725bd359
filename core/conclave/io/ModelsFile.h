#pragma once

#include "conclave/diagnostics/Problem.h"
#include "conclave/model/Backend.h"

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace conclave {

// A file of model profiles in the format of resources/models/local-models.json,
// { "models": { NAME: profile, ... } }: the shipped catalog, a local-moe
// backend's `models_file`, and what `conclave calibrate` writes. A file whose
// profiles use difficulty_weight, confidence, synthesis, load_slope, fitted or
// calibrated_from carries "format": 2 (others no format, read as 1); a format
// newer than kFormat is an error at /format.
class ModelsFile {
public:
    static constexpr int64_t kFormat = 2;
    struct LoadResult;
    using Profiles = std::map<std::string, ModelProfile>;

    static LoadResult load(const std::filesystem::path& path);
    static LoadResult fromJsonText(std::string_view text);
    // Canonical JSON text of { "models": ... }, readable by fromJsonText().
    static std::string toJsonText(const Profiles& models);

    // Where a backend's `models_file` is: an absolute path as it is, a relative
    // one inside `teamFolder` (the team file's folder), or, when that is empty
    // (a team not read from a file), relative to the current directory.
    static std::filesystem::path resolve(const std::string& modelsFile, const std::filesystem::path& teamFolder);

    // The profiles of `above` laid over those of `below` field by field (skills,
    // skills_ci and trials domain by domain): what `above` sets wins, the rest
    // of `below` stays. A model only one side names is taken as it is.
    static Profiles overlay(const Profiles& below, const Profiles& above);

    const Profiles& models() const { return m_models; }

private:
    Profiles m_models;
};

struct ModelsFile::LoadResult {
    std::optional<ModelsFile> file; // set when there is no error
    std::vector<Problem> problems;  // with JSON pointers into the file, or line:column
};

} // namespace conclave
