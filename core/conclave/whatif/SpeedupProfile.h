#pragma once

#include "conclave/model/StrongId.h"

#include <nlohmann/json.hpp>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace conclave {

// A causal latency profile (docs/whatif.md), as Coz's: for each agent, the
// projected wall when that agent alone is X % faster (latency × (1 − X/100);
// 100 % is instant). Of one run (`trials` 1: p50 and p95 are its wall), or of
// an experiment's design over its trials (the p50 and p95 of the trials' walls).
struct SpeedupProfile {
    static constexpr std::array<int, 4> kPercents{10, 25, 50, 100};

    // A wall over the trials: its p50 and p95 (Quantile::of), µs.
    struct Wall {
        int64_t p50 = 0, p95 = 0;
    };

    struct Row {
        NodeId node;
        std::array<Wall, 4> wall{}; // at each of kPercents
    };

    std::string run;        // one run's profile: its id; empty for a design's
    std::string experiment; // a design's profile: the experiment and the design
    std::string design;
    std::string team;
    int64_t trials = 1;
    Wall wall;             // as projected with no change (== as stored on the simulated clock)
    std::vector<Row> rows; // ranked by the p50 saving at 50 %, then in team order

    // A backend's max_concurrency doubled.
    struct Backend {
        BackendName backend;
        int64_t from = 0, to = 0;
        Wall wall;
    };
    std::vector<Backend> backends; // those with a max_concurrency, by name

    // The p50 wall `row` saves at kPercents[level] (negative: the change made it later); p95 likewise.
    int64_t savedUs(const Row& row, size_t level) const { return wall.p50 - row.wall[level].p50; }
    int64_t savedP95Us(const Row& row, size_t level) const { return wall.p95 - row.wall[level].p95; }

    // "out of 50.225 s, making planner 50 % faster saves 19.373 s (38.6 %); intake: 0.120 s"
    // (a design's: "out of 12.300 s p50 over 500 trials, …").
    std::string headline() const;
    std::string text() const;
    nlohmann::ordered_json json() const;
};

} // namespace conclave
