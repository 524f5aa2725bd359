#pragma once

#include "conclave/store/StoredRun.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace conclave {

// What the store keeps of an experiment: a row per experiment and a row per
// trial (one design on one task under one seed). The spec is JSON (its
// designs' team JSON as run, the task set's name and content hash, the seeds,
// the scorer), written and read by core/conclave/experiment; the store keeps
// it whole and compares it when shards are merged.

// Failed: it could not go on (a recorder, a start or the store failed); its note says why.
enum class ExperimentStatus { Running, Finished, Interrupted, Cancelled, Failed };

std::string_view toString(ExperimentStatus status);
std::optional<ExperimentStatus> experimentStatusFromString(std::string_view text);

struct ExperimentRecord {
    std::string id; // derived from the spec: every shard of one experiment has the same id
    std::string name;
    ExperimentStatus status = ExperimentStatus::Running;
    std::string specJson;             // canonical JSON
    std::vector<std::string> designs; // design names, in spec order
    std::string taskset;              // the task set's name
    int64_t plannedTrials = 0;        // designs × tasks × seeds (of the whole experiment, not one shard)
    int64_t storedTrials = 0;         // filled in by reads: trials in this database
    int64_t startedAtMs = 0;          // Unix time
    int64_t endedAtMs = -1;           // -1 while running
    std::string note;                 // why it stopped early, when it did ("--max-cost 0.50 reached")
    double spentUsd = 0;              // everything its runs cost (design and judge), across every resume
};

// One agent's share of a trial: what the per-agent statistics are computed from.
struct TrialAgent {
    std::string node;
    bool onCriticalPath = false;
    double costUsd = 0;
    int64_t wallUs = 0; // the node's own execution (its spans, every round summed), 0 when it did not run
    bool ran = false;
    std::vector<int64_t> attemptsUs; // each of its call attempts that finished, in start order
};

struct TrialRecord {
    std::string experimentId;
    int design = 0; // index into the spec's designs
    std::string designName;
    std::string task; // task id
    std::string domain;
    uint64_t seed = 0;
    RunId runId; // empty when only the trial's figures were stored (eval --store summaries)
    RunStatus status = RunStatus::Ok; // the run's status
    std::string answer;               // the run's normalised answer
    std::string expected;             // what it was compared with (the reference, or the judge's verdict source)
    std::optional<bool> correct;      // unset when unscored
    std::string scoreDetail;          // how it was scored ("exact", "numeric ±0.01", "choice", "judge: incorrect")
    int64_t wallUs = 0;
    int64_t criticalPathUs = 0;
    double costUsd = 0;      // the design's calls
    double judgeCostUsd = 0; // the judge's calls, apart
    int64_t tokens = 0;      // in + out
    int calls = 0;
    int replayedCalls = 0; // of `calls`, those answered from recordings (a recorded backend)
    RunId judgeRunId;      // the judge's run, when it was stored (empty: no judge, or not stored)
    std::vector<TrialAgent> agents;

    bool failed() const { return status != RunStatus::Ok && status != RunStatus::Partial; }
};

// A trial's agents as the store keeps them (trials.agents_json):
// [{"node": "a", "cp": true, "cost": 0.25, "wall_us": 1200, "ran": true, "attempts_us": [800, 400]}, ...].
// "attempts_us" is left out when the agent made no call; rows written before it existed read as none.
std::string trialAgentsToJson(const std::vector<TrialAgent>& agents);
// The agents of trialAgentsToJson's text; what is not such an array reads as none.
std::vector<TrialAgent> trialAgentsFromJson(std::string_view json);

} // namespace conclave
