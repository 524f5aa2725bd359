#pragma once

#include "conclave/model/StrongId.h"

#include <nlohmann/json.hpp>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace conclave {

// A causal latency profile of one run (docs/whatif.md), as Coz's: for each
// agent, the run's projected wall when that agent alone is X % faster
// (latency × (1 − X/100); 100 % is instant).
struct SpeedupProfile {
    static constexpr std::array<int, 4> kPercents{10, 25, 50, 100};

    struct Row {
        NodeId node;
        std::array<int64_t, 4> wallUs{}; // at each of kPercents
    };

    std::string run;
    std::string team;
    int64_t wallUs = 0;    // the run's, as projected with no change (== as stored on the simulated clock)
    std::vector<Row> rows; // ranked by the saving at 50 %, then by node id

    // A backend's max_concurrency doubled.
    struct Backend {
        BackendName backend;
        int64_t from = 0, to = 0;
        int64_t wallUs = 0;
    };
    std::vector<Backend> backends; // those with a max_concurrency, by name

    // The wall `row` saves at kPercents[level] (negative: the change made it later).
    int64_t savedUs(const Row& row, size_t level) const { return wallUs - row.wallUs[level]; }

    // "out of 50.225 s, making planner 50 % faster saves 19.373 s (38.6 %); intake: 0.120 s".
    std::string headline() const;
    std::string text() const;
    nlohmann::ordered_json json() const;
};

} // namespace conclave
