#pragma once

#include "conclave/session/PreparedTeam.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace conclave {

class Engine;

// Many projections at once (a speed-up profile's): each a prepared replay
// run on the simulated clock with its run's input and seed, up to kInFlight
// at once on the engine's threads.
struct ProjectionRuns {
    static constexpr size_t kInFlight = 64;

    struct Job {
        std::shared_ptr<const PreparedTeam> team;
        const std::string* input = nullptr; // outlives the call
        uint64_t seed = 0;
    };

    // Each job's wall (µs), in order; unset, with `error`, when one cannot start.
    static std::optional<std::vector<int64_t>> walls(Engine& engine, const std::vector<Job>& jobs,
                                                     std::string& error);
};

} // namespace conclave
