#pragma once

#include "conclave/experiment/SweepSpec.h"
#include "conclave/local/TaskSet.h"
#include "conclave/model/Team.h"
#include "conclave/session/ClockChoice.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace conclave {

// One team evaluated in an experiment.
struct ExperimentDesign {
    std::string name; // unique within the experiment
    std::string file; // the team file as typed ("" for a team not from a file), for display
    std::string path; // the same file, absolute: where a resume reloads it from
    Team team;
    std::string teamJson; // the team's canonical JSON, exactly as run
    std::string hash;     // contentHash(teamJson) with the bytes of every input it reads (inputsRead)
    // A variant of a sweep (eval --vary): the value of each swept field, in
    // flag order; empty for a design that is not one. Stored with the spec,
    // shown as columns by reports, read by what plots a metric over them.
    std::vector<SweepParameter> sweep;

    // The swept field at `path` ("e.params.temperature"); null when not swept.
    const SweepParameter* parameter(std::string_view field) const;
};

// What an experiment is: its designs, the tasks, the seeds and the scorer.
// Its id is derived from exactly these (not from its name, nor from how it
// is run: concurrency, cost limit, shard, nor from where its files are or
// how their paths were typed), so every shard of one experiment has the same
// id, wherever it ran, and a changed design, input or task makes a new one.
struct ExperimentSpec {
    std::string name;
    std::vector<ExperimentDesign> designs;
    int baseline = 0;
    std::string tasksetName;              // a bundled set's name, or the file as typed
    bool tasksetBundled = false;          // tasksetName names a bundled set
    std::string tasksetPath;              // a file's absolute path, where a resume reloads it ("" when bundled)
    std::shared_ptr<const TaskSet> tasks; // the selected tasks, in order
    std::vector<uint64_t> seeds;
    std::optional<ExperimentDesign> judge; // scores free-text tasks when set
    ClockRequest clock = ClockRequest::Auto;
    // The --vary flags as typed, when its designs are a sweep's variants: a
    // resume regenerates them from these and the swept file.
    std::vector<std::string> vary;
    // The id an experiment stored by an older Conclave has (its id hashed the
    // paths too); a resume keeps it. Unset for every new experiment.
    std::optional<std::string> storedId;

    std::string tasksHash() const; // of the selected tasks
    // The spec as stored: canonical JSON of every field but the name, with
    // the paths as typed (for display) and absolute (to reload).
    nlohmann::ordered_json toJson() const;
    // What the id is the hash of: toJson() without a path — each design's
    // name and hash (its team JSON as run and the bytes of its inputs), a
    // bundled task set by name or a file by nothing but its content, the
    // selected task ids and their hash, the seeds, the scorer and the clock.
    nlohmann::ordered_json identityJson() const;
    // storedId when set, else "e-" and 12 hex digits of the hash of identityJson().
    std::string id() const;
    std::vector<std::string> designNames() const;
};

// The spec a stored experiment was made from, read back from its JSON: the
// designs' teams are parsed from the JSON as run; `tasks` holds only the
// selected ids and hash (the task set is reloaded to resume).
struct StoredSpec {
    int format = 2; // 1: stored before identities left paths out
    std::vector<ExperimentDesign> designs;
    int baseline = 0;
    std::string tasksetName;
    bool tasksetBundled = false; // unknown (false) in format 1
    std::string tasksetPath;
    std::vector<std::string> taskIds;
    std::string tasksHash;
    std::vector<uint64_t> seeds;
    std::optional<ExperimentDesign> judge;
    ClockRequest clock = ClockRequest::Auto;
    std::vector<std::string> vary;

    static std::optional<StoredSpec> fromJson(const std::string& specJson, std::string& error);
};

// A design from a team: its canonical JSON, its file's absolute path and its
// hash (of the JSON and of every input it reads, found from the file's folder).
ExperimentDesign makeDesign(std::string name, std::string file, Team team);

// Names designs after their teams: two teams with one name are told apart by
// their file names ("triage (triage.team.json)"), and a file listed twice
// gets "NAME #2".
std::vector<std::string> nameDesigns(const std::vector<std::pair<std::string, std::string>>& teamAndFile);

} // namespace conclave
