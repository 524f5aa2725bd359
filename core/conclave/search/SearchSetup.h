#pragma once

#include "conclave/local/TaskSet.h"
#include "conclave/search/SearchSpace.h"

#include <filesystem>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace conclave {

// What a user asks a design search for, before anything is loaded.
struct SearchRequest {
    std::vector<Team> baseTeams;         // teams not from a file (the studio's open team), first
    // Teams as the studio holds them (unsaved edits included), each with the file it was opened from
    // (SearchBase::path, where its relative files are found; empty: none), before baseTeams.
    std::vector<SearchBase> bases;
    std::vector<std::string> baseFiles;  // team files
    std::string spaceFile;               // a space file, or
    std::vector<std::string> parameters; // --vary flags (the studio's table)
    std::string taskset;                 // a bundled set's name or a file; several, comma-separated, as one
    std::vector<std::string> referenceFiles;
};

struct SearchSetupResult {
    std::optional<SearchSpace> space;
    std::shared_ptr<const TaskSet> tasks;
    std::string tasksetName;
    std::vector<SearchBase> references;
    std::vector<std::string> errors; // space unset when any
    std::vector<std::string> warnings;
};

// Loads a search's bases (each must load and validate, and call no paid
// endpoint), its space, its task set and its references. Never half a setup.
class SearchSetup {
public:
    static SearchSetupResult build(const SearchRequest& request, const std::filesystem::path& resourcesDir);
    // A team file as a base: loaded and validated (its local models among `localModels`, when given);
    // unset with its problems in `errors`.
    static std::optional<SearchBase> loadBase(const std::string& file, const std::set<std::string>& localModels,
                                              std::vector<std::string>& errors);
};

} // namespace conclave
