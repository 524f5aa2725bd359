#pragma once

#include "conclave/engine/RouterBehaviour.h"
#include "conclave/model/Team.h"
#include "conclave/session/EngineResources.h"

#include <filesystem>
#include <memory>
#include <string>

namespace conclave {

// Makes a `learned` router's behaviour (routing/LearnedRouter) when a team is
// prepared: reads its router_file (relative to the team file's folder, as a
// backend's models_file is), builds the predictor under the engine's gate,
// and matches each route to its expert's model and price. Refuses, naming
// the node and the file: a file that cannot be read or was trained under
// another gate, an expert whose model the file does not know. What needs no
// file (routes that lead to experts, the policy's threshold, cost weight,
// strong and weak) is the validator's (GraphChecks), which runs first.
class LearnedRouterLoad {
public:
    static std::shared_ptr<const RouterBehaviour> make(const Node& router, const EngineResources& resources,
                                                       const std::filesystem::path& teamFolder, const Team* team,
                                                       std::string& error);
};

} // namespace conclave
