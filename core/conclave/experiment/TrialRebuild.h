#pragma once

#include "conclave/engine/RunResult.h"
#include "conclave/store/ExperimentRecords.h"

#include <filesystem>
#include <string>
#include <vector>

namespace conclave {

class Engine;
class RunStore;

// Rebuilds one trial's design run on the simulated clock from what its
// experiment stored: the design's team JSON as run (with the inputs it reads,
// checked by content hash), the task's prompt (its task set reloaded and
// checked the same way) and the trial's seed. A simulated run is a function
// of exactly these, so the rebuilt run reproduces the trial; it is stored as
// an ordinary run, and its figures are compared with the trial's.
class TrialRebuild {
public:
    struct Result {
        TrialRecord stored;  // the trial as stored
        TrialRecord rebuilt; // the same trial from the rebuilt run
        RunResult run;
        std::string runId;                    // the rebuilt run, as stored
        bool judged = false;                  // its verdict came from a judge, which is not rebuilt
        std::vector<std::string> differences; // "wall_us 1300 (stored 1200)"; none when it reproduces
        std::string error;                    // why it could not be rebuilt
    };

    // `trial` is "DESIGN/TASK/SEED" (a design's name, a task id, a seed).
    static Result run(Engine& engine, RunStore& store, const ExperimentRecord& experiment, const std::string& trial,
                      const std::filesystem::path& resourcesDir);
};

} // namespace conclave
