#pragma once

#include "conclave/engine/RouterBehaviour.h"

#include <memory>
#include <string>

namespace conclave {

// The behaviours of the strategies the engine runs with nothing from above
// it: all, keyword, moe_gate and llm. session/'s RouterBehaviourFactory makes
// these through here; a plan made without session/ (RunPlan::make(team,
// error): analyses, tests) gets them too. A strategy whose behaviour lives
// above the engine has none here.
class StandardRouters {
public:
    // The behaviour of `router` (a router without a strategy broadcasts);
    // null, with `error` set, for a strategy not made here.
    static std::shared_ptr<const RouterBehaviour> make(const Node& router, std::string& error);
};

} // namespace conclave
