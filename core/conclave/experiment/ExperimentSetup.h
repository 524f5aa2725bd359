#pragma once

#include "conclave/experiment/ExperimentSpec.h"
#include "conclave/store/ExperimentRecords.h"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace conclave {

// What a user asks an evaluation for, before anything is loaded.
struct EvalRequest {
    // Designs given as teams rather than files (the studio's open team, with
    // its unsaved edits, as on screen): they come first, have no file, and
    // resume from their stored JSON.
    std::vector<Team> designTeams;
    std::vector<std::string> designFiles;
    std::string taskset;              // a bundled set's name or a file (JSONL or CSV)
    std::vector<std::string> taskIds; // --tasks; empty: all
    std::string domain;               // --domain; empty: all
    std::optional<size_t> sample;     // --sample N
    uint64_t sampleSeed = 0;
    std::vector<uint64_t> seeds{1};
    std::optional<std::string> baselineFile; // the first design when unset
    std::optional<std::string> judgeFile;
    ClockRequest clock = ClockRequest::Auto;
    std::string name;
    // --vary PATH=VALUES, repeatable: the first design (team file or team) is
    // replaced by the grid of its variants (SweepSpec, TeamSweep); the other
    // designs (a baseline file, single models as a curve's references) stay as they are.
    std::vector<std::string> vary;
    bool manyVariants = false; // --yes: more than SweepSpec::kConfirmAbove variants may run
};

struct SetupResult {
    std::optional<ExperimentSpec> spec;
    std::vector<std::string> errors; // "FILE:LINE: message" and the like; spec unset when any
    std::vector<std::string> warnings;
};

// Turns a request into a spec: loads the designs and the judge, the task set
// (bundled by name, else a file), selects and samples tasks, checks that
// every task can be scored. Never half a spec: any error leaves it unset.
class ExperimentSetup {
public:
    static SetupResult build(const EvalRequest& request, const std::filesystem::path& resourcesDir);

    // The spec of a stored experiment, to resume it: its designs and judge
    // reloaded from their files (a sweep's variants regenerated from its file
    // and its --vary flags, SweepDesigns::regenerate) and its tasks from its
    // task set, refusing when any of them changed since (by content hash).
    static SetupResult resume(const ExperimentRecord& record, const std::filesystem::path& resourcesDir);

    // The selected tasks of a stored spec, reloaded from its task set (bundled
    // by name, else its file), in the spec's order; unset, with an error, when
    // the set cannot be read or its tasks changed since (by content hash).
    // A task set as --taskset names it: a bundled set's name, else a file (JSON Lines or CSV). Unset
    // with `errors` when it is neither or does not load; warnings are the file's.
    static std::optional<TaskSet> taskSet(const std::string& nameOrFile, const std::filesystem::path& resourcesDir,
                                          std::vector<std::string>& errors, std::vector<std::string>& warnings);
    static std::optional<TaskSet> storedTasks(const StoredSpec& stored, const std::filesystem::path& resourcesDir,
                                              std::vector<std::string>& errors, std::vector<std::string>& warnings);

    // What an experiment can spend on paid (openai) endpoints, typically and
    // at most: every trial of the spec (all shards) priced by TeamCostBound
    // on its task's prompt, and, for a task the judge scores, the judge's
    // bound on its input (the question, the reference and the design's
    // longest answer). Local calls are simulated and free. The one cost rule
    // the CLI and the studio ask before a paid run (docs/experiments.md).
    struct CostBound {
        double typicalUsd = 0;
        double upperUsd = 0;
        int64_t paidTrials = 0;            // trials that call a paid endpoint, their judge's runs included
        std::vector<std::string> unpriced; // "DESIGN: MODEL": paid models with no price, counted as free
        std::vector<std::string> uncapped; // "DESIGN: NODE": paid calls without max_tokens, counted at 512 out
    };
    static CostBound costBound(const ExperimentSpec& spec);
};

} // namespace conclave
