#include "conclave/session/RouterBehaviourFactory.h"

#include "conclave/engine/StandardRouters.h"
#include "conclave/session/LearnedRouterLoad.h"

#include <array>

namespace conclave {

namespace {

struct Made {
    RouterStrategy strategy;
    std::shared_ptr<const RouterBehaviour> (*make)(const Node& router, const EngineResources& resources,
                                                   const std::filesystem::path& teamFolder, const Team* team,
                                                   std::string& error);
};

// The strategies whose behaviour is made here, one line each; every other strategy's is the engine's own.
constexpr std::array<Made, 1> kMadeHere{{
    {RouterStrategy::Learned, &LearnedRouterLoad::make},
}};

} // namespace

RouterBehaviourFactory::RouterBehaviourFactory(const EngineResources& resources, std::filesystem::path teamFolder,
                                               const Team* team)
    : m_resources(resources), m_teamFolder(std::move(teamFolder)), m_team(team)
{
}

std::shared_ptr<const RouterBehaviour> RouterBehaviourFactory::make(const Node& router, std::string& error) const
{
    const auto strategy = router.config.routerStrategy.value_or(RouterStrategy::All);
    for (const auto& made : kMadeHere) {
        if (made.strategy == strategy)
            return made.make(router, m_resources, m_teamFolder, m_team, error);
    }
    return StandardRouters::make(router, error);
}

RouterMaker RouterBehaviourFactory::maker() const
{
    return [this](const Node& router, std::string& error) { return make(router, error); };
}

} // namespace conclave
