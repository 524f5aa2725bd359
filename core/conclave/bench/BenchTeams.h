#pragma once

#include "conclave/model/Team.h"

#include <cstddef>

namespace conclave {

// The teams the benchmarks run, built in code so their shape is exact.
class BenchTeams {
public:
    // A model that answers after exactly latencyMs (first token, then one token at once), never fails,
    // and is right with `skill` in every domain.
    static ModelProfile fixedProfile(double latencyMs, double skill);

    // input -> router(all) -> n experts (a fixed-latency model, no jitter, no
    // failures) -> aggregator(concat) -> output.
    static Team fanOut(size_t n, double latencyMs);

    // input -> e1 -> e2 -> ... -> en -> output, on a zero-latency model.
    static Team chain(size_t n);

    // input -> router(all) -> `fast` experts that agree quickly and `slow` ones
    // that would take much longer -> majority with quorum = fast -> output.
    static Team earlyTermination(size_t fast, size_t slow, double fastMs, double slowMs);
};

} // namespace conclave
