#pragma once

#include "conclave/model/Team.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace conclave {

// A search's front written as team files (`search -o DIR`): one canonical
// team file per front design, "01-NAME.team.json" in front order, its
// description saying what was searched and what it measured, its relative
// models_file, router_file, scorer and recorded db rewritten to resolve from
// DIR. Each file is written atomically; a DIR that holds anything is refused
// unless forced.
class SearchOutput {
public:
    // Makes DIR when missing; refuses one with files in it unless `force`.
    static std::optional<std::string> prepare(const std::filesystem::path& dir, bool force);
    // The file names the report's front designs get, in order (DIR joined): "01-triage-c28.team.json",
    // from its base's file name (its team's name for a base not from a file) and its candidate id.
    static std::vector<std::string> fileNames(const std::filesystem::path& dir, const nlohmann::ordered_json& report,
                                              const std::vector<std::string>& baseFiles,
                                              const std::vector<std::string>& baseNames);
    // Writes them; an error names the file that could not be written.
    static std::optional<std::string> write(const std::filesystem::path& dir, const nlohmann::ordered_json& report,
                                            const std::vector<std::string>& baseFiles);
    // `team` (read from a file in `from`) with its relative files rewritten to resolve from `to`.
    static Team relocated(Team team, const std::filesystem::path& from, const std::filesystem::path& to);
    // What a written design's description says.
    static std::string description(const nlohmann::ordered_json& report, const nlohmann::ordered_json& design);
};

} // namespace conclave
