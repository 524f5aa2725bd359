#pragma once

#include "conclave/search/DesignSearch.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace conclave {

// What a search is and what it found, in the forms the CLI, the store and the
// studio show: its identity (what its id is the hash of), its report as JSON
// (stored with it, printed by --json and `searches show`) and as text.
class SearchReport {
public:
    // What a search is: the bases (each by its content hash, its file as typed for display), the space's
    // parameters, the tasks (by content), the split, the seeds, the objectives, constraints and budget.
    static nlohmann::ordered_json specJson(const SearchSpace& space, const std::string& tasksetName,
                                           const TaskSet& tasks, const DesignSearch::Options& options);
    // "s-" and 12 hex digits of the hash of specJson without the files as typed.
    static std::string idOf(const nlohmann::ordered_json& spec);

    // The result as JSON: parts, rungs, budget spent, counts, every front design with its parameters and
    // its figures on search, validation and test (CIs, Δ against the first base as drawn, the drop from
    // validation to test), and `files` (per front design, the team file written, if any).
    static nlohmann::ordered_json toJson(const DesignSearch::Result& result, const DesignSearch::Options& options,
                                         const std::string& id, const std::string& command,
                                         const std::vector<std::string>& files = {});
    // The same as the text the CLI prints (it reads only the JSON, so `searches show` prints it alike).
    static std::string text(const nlohmann::ordered_json& report);
};

} // namespace conclave
