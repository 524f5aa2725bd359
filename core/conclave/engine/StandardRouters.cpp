#include "conclave/engine/StandardRouters.h"

#include "conclave/engine/BroadcastRouter.h"
#include "conclave/engine/KeywordRouter.h"
#include "conclave/engine/LlmRouter.h"
#include "conclave/engine/MoeGateRouter.h"

namespace conclave {

std::shared_ptr<const RouterBehaviour> StandardRouters::make(const Node& router, std::string& error)
{
    const auto& c = router.config;
    const auto strategy = c.routerStrategy.value_or(RouterStrategy::All);
    // Not a switch: a strategy added above the engine is simply not made here.
    if (strategy == RouterStrategy::All)
        return std::make_shared<BroadcastRouter>();
    if (strategy == RouterStrategy::Keyword)
        return std::make_shared<KeywordRouter>(c.routes.value_or(RouteTable{}), c.defaultRoute);
    if (strategy == RouterStrategy::MoeGate)
        return std::make_shared<MoeGateRouter>(size_t(c.topK.value_or(1)), c.minWeight.value_or(0.0));
    if (strategy == RouterStrategy::Llm)
        return std::make_shared<LlmRouter>(c.defaultRoute);
    error = "router \"" + router.id.str() + "\": the engine has no behaviour for strategy " +
            std::string(toString(strategy));
    return nullptr;
}

} // namespace conclave
