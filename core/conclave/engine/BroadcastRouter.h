#pragma once

#include "conclave/engine/RouterBehaviour.h"

namespace conclave {

// Strategy `all`: every route fires.
class BroadcastRouter : public RouterBehaviour {
public:
    RouteDecision decide(const RouterInput& input) const override;
};

} // namespace conclave
