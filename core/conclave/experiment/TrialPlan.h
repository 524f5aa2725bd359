#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace conclave {

struct ExperimentSpec;

// One part of an experiment run on its own (`--shard I/N`): the trials whose
// index is I modulo N. Every shard of one spec has the same experiment id.
struct Shard {
    int index = 0;
    int count = 1;

    // "I/N" with 0 ≤ I < N; the error says what is wrong.
    static std::optional<Shard> parse(std::string_view text, std::string& error);
    std::string text() const { return std::to_string(index) + "/" + std::to_string(count); }
};

// A trial of an experiment: one design on one task under one seed.
struct PlannedTrial {
    size_t index = 0; // in the experiment's trial order
    int design = 0;
    size_t task = 0; // index into the spec's tasks
    uint64_t seed = 0;
};

// Every trial of the spec (or of one shard), in the experiment's order: task
// by task, each task's seeds in turn, every design on each (task, seed) — so
// a stopped experiment has compared its designs on the same tasks.
std::vector<PlannedTrial> planTrials(const ExperimentSpec& spec, std::optional<Shard> shard = std::nullopt);

} // namespace conclave
