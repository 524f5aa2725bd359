#pragma once

#include "conclave/local/CallResponder.h"
#include "conclave/local/Gate.h"
#include "conclave/local/TaskSet.h"
#include "conclave/model/Backend.h"

#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace conclave {

// What the local-moe backend needs from resources/: model profiles, the gate,
// and the task sets it recognises.
struct EngineResources {
    std::map<std::string, ModelProfile> localModels;
    std::shared_ptr<const Gate> gate;
    std::shared_ptr<const TaskSet> tasks;
    // When set, every local-moe backend's calls are answered by this instead
    // of the simulator (timed, queued and loaded as the backend says): a
    // ground-truth world, so `bench fidelity` can measure designs on a world
    // in process. The gate still scores by the simulator's profiles.
    std::shared_ptr<const CallResponder> world;

    // Loads models/local-models.json, models/gate.json and tasksets/*.jsonl.
    static EngineResources load(const std::filesystem::path& resourcesDir, std::vector<std::string>& errors);
};

} // namespace conclave
