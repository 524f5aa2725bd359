#pragma once

#include "conclave/bench/WorldSpec.h"
#include "conclave/model/Team.h"

#include <vector>

namespace conclave {

// The six designs `bench fidelity` measures on a ground-truth world, over
// its models, each on one local-moe backend that names them (so an engine
// with the world answers them): `single` (the priciest model alone),
// `cascade` (cheapest first, escalating below confidence 0.8), `vote`
// (majority of up to three models), `synthesizer` (up to three answer, the
// priciest synthesizes), `synthesizer-skip` (the same, returning an answer
// every candidate agrees on without the call) and `debate` (up to three,
// two rounds). Models by price, the priciest first; ties by name.
class FidelityDesigns {
public:
    static std::vector<Team> forWorld(const WorldSpec& world);
};

} // namespace conclave
