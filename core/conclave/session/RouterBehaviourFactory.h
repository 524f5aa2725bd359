#pragma once

#include "conclave/engine/RouterBehaviour.h"
#include "conclave/session/EngineResources.h"
#include "conclave/model/Team.h"

#include <filesystem>
#include <memory>
#include <string>

namespace conclave {

// Makes each router's behaviour when a team is prepared (Engine::prepare
// hands make() to RunPlan::make), so every run of the team shares them. The
// one place that knows which class runs which strategy: a strategy whose
// behaviour needs what only session/ has (a file from the team's folder, the
// resources) is one line in its table; the rest are the engine's own
// (StandardRouters).
class RouterBehaviourFactory {
public:
    // A relative path in a router's settings is found in `teamFolder` (empty: the current directory).
    // `team`, when given, is the team the routers are in: a behaviour that reads its routes' targets
    // (a learned router: their models and prices) is checked against it.
    RouterBehaviourFactory(const EngineResources& resources, std::filesystem::path teamFolder,
                           const Team* team = nullptr);

    // The behaviour of `router`; null, with `error` set, when it cannot be made
    // (a file it needs cannot be read).
    std::shared_ptr<const RouterBehaviour> make(const Node& router, std::string& error) const;
    // make() as the run plan takes it; the factory must outlive the call to RunPlan::make.
    RouterMaker maker() const;

private:
    const EngineResources& m_resources;
    std::filesystem::path m_teamFolder;
    const Team* m_team = nullptr;
};

} // namespace conclave
