#pragma once

#include "conclave/diagnostics/Problem.h"
#include "conclave/model/Team.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace conclave {

struct TeamLoadResult {
    std::optional<Team> team;        // set when the file had no errors of shape or syntax
    std::vector<Problem> problems;   // errors, and warnings such as a byte-order mark
};

// Reads team file text (format version 1). Never throws: malformed input
// gives problems with line:column (syntax) or a JSON pointer (shape and type).
TeamLoadResult teamFromJsonText(std::string_view text);
TeamLoadResult teamFromJson(const nlohmann::json& document);

// The canonical JSON of a team: stable key order, nodes and edges in team order,
// unknown keys after the known ones. Load -> save -> load gives an equal team.
nlohmann::ordered_json teamToJson(const Team& team);
// teamToJson() as text: 2-space indent and a trailing newline.
std::string teamToJsonText(const Team& team);

// A model profile (local-models.json entries, inline `models`).
std::optional<ModelProfile> profileFromJson(const nlohmann::json& value, const std::string& pointer,
                                            std::vector<Problem>& problems);
nlohmann::ordered_json profileToJson(const ModelProfile& profile);

} // namespace conclave
