#pragma once

#include "conclave/local/TaskSet.h"
#include "conclave/model/Team.h"
#include "conclave/session/ClockChoice.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace conclave {

// One team evaluated in an experiment.
struct ExperimentDesign {
    std::string name; // unique within the experiment
    std::string file; // the team file as given ("" for a team not from a file)
    Team team;
    std::string teamJson; // the team's canonical JSON, exactly as run
    std::string hash;     // contentHash(teamJson), with the bytes of any models_file it reads
};

// What an experiment is: its designs, the tasks, the seeds and the scorer.
// Its id is derived from exactly these (not from its name, nor from how it
// is run: concurrency, cost limit, shard), so every shard of one experiment
// has the same id and a changed design or task makes a new experiment.
struct ExperimentSpec {
    std::string name;
    std::vector<ExperimentDesign> designs;
    int baseline = 0;
    std::string tasksetName;              // a bundled set's name, or the file as given
    std::shared_ptr<const TaskSet> tasks; // the selected tasks, in order
    std::vector<uint64_t> seeds;
    std::optional<ExperimentDesign> judge; // scores free-text tasks when set
    ClockRequest clock = ClockRequest::Auto;

    std::string tasksHash() const; // of the selected tasks
    // The spec as stored: canonical JSON of every field but the name.
    nlohmann::ordered_json toJson() const;
    // "e-" and 12 hex digits of the hash of toJson().
    std::string id() const;
    std::vector<std::string> designNames() const;
};

// The spec a stored experiment was made from, read back from its JSON: the
// designs' teams are parsed from the JSON as run; `tasks` holds only the
// selected ids and hash (the task set is reloaded to resume).
struct StoredSpec {
    std::vector<ExperimentDesign> designs;
    int baseline = 0;
    std::string tasksetName;
    std::vector<std::string> taskIds;
    std::string tasksHash;
    std::vector<uint64_t> seeds;
    std::optional<ExperimentDesign> judge;
    ClockRequest clock = ClockRequest::Auto;

    static std::optional<StoredSpec> fromJson(const std::string& specJson, std::string& error);
};

// A design from a team: its canonical JSON and hash.
ExperimentDesign makeDesign(std::string name, std::string file, Team team);

// Names designs after their teams: two teams with one name are told apart by
// their file names ("triage (triage.team.json)"), and a file listed twice
// gets "NAME #2".
std::vector<std::string> nameDesigns(const std::vector<std::pair<std::string, std::string>>& teamAndFile);

} // namespace conclave
