#pragma once

#include "conclave/model/Team.h"

#include <QString>

namespace conclave::studio {

// `conclave-studio --bench-whatif`: the What-if panel on a stored run of a
// 100-node team, a speed slider moved `moves` times; prints the median and
// p95 of a move's re-projection and redraw (the slider set until the new
// projection is drawn), and of the projection alone on its thread.
class WhatIfBench {
public:
    // input -> router(all) -> 6 layers of 16 experts (the first fed by the
    // router, each later one by two of the layer before; latencies 100 to
    // 850 ms, exact) -> aggregator(concat) -> output: 100 nodes.
    static Team team();
    // `dbFile` empty: a temporary store.
    static int run(const QString& dbFile, int moves);
};

} // namespace conclave::studio
