#pragma once

#include "conclave/engine/Span.h"
#include "conclave/model/Team.h"
#include "conclave/whatif/SpeedupProfile.h"
#include "conclave/whatif/WhatIfChanges.h"

#include <cstdint>
#include <set>
#include <vector>

namespace conclave {

// The changes a speed-up profile projects (docs/whatif.md), in order: none;
// each agent alone at each of SpeedupProfile::kPercents faster; each backend
// with a max_concurrency, that limit doubled. The agents are the team's nodes
// that called a model (in team order); backends only when queue waits were recorded.
class SpeedupPlan {
public:
    SpeedupPlan(const Team& team, const std::set<NodeId>& called, bool waitsRecorded);

    // The nodes a run's spans show calling a model (its attempts' nodes): the agents a profile and
    // the studio's What-if panel offer.
    static std::set<NodeId> called(const std::vector<Span>& spans);

    const std::vector<WhatIfChanges>& changes() const { return m_changes; }

    // The profile from each change's walls over the trials (walls[c]: one per trial, µs, in any
    // order), p50 and p95 by Quantile::of; its run or design fields are the caller's to fill.
    SpeedupProfile profile(const std::vector<std::vector<int64_t>>& walls) const;

private:
    std::vector<NodeId> m_agents;
    std::vector<std::pair<BackendName, int64_t>> m_backends; // with their max_concurrency
    std::vector<WhatIfChanges> m_changes;
};

} // namespace conclave
