#include "conclave/model/Node.h"

#include "conclave/model/RouterStrategies.h"

namespace conclave {

bool Node::callsModel() const
{
    switch (kind) {
    case NodeKind::Router:
        return config.routerStrategy && RouterStrategies::of(*config.routerStrategy).callsModel;
    case NodeKind::Expert:
        return true;
    case NodeKind::Aggregator:
        return config.aggregatorStrategy == AggregatorStrategy::Synthesize;
    case NodeKind::Coordinator:
        return config.mode == CoordinatorMode::Decompose;
    case NodeKind::Input:
    case NodeKind::Output:
        break;
    }
    return false;
}

} // namespace conclave
