#pragma once

#include "conclave/model/Team.h"

#include <cstddef>

namespace conclave::studio {

// `conclave-studio --bench`: opening a large team (500 nodes, 1,000 edges) and
// showing it, and auto layout of it. Prints the median of several runs.
class StudioBench {
public:
    // input -> router(all) -> layers of experts, each fed by two or three of the
    // layer before -> aggregator -> output: exactly `nodes` nodes and `edges` edges.
    static Team largeTeam(size_t nodes, size_t edges);
    static int run(int repeats);
};

} // namespace conclave::studio
