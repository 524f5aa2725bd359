#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>

// The values Conclave uses when a team file leaves a setting out: one home,
// read by the run plan, the call runner, the meetings, the engine and the
// studio. docs/team-format.md states the same numbers.
namespace conclave::defaults {

inline constexpr int64_t kTimeoutMs = 30000;        // per call attempt
inline constexpr int kRetries = 2;                  // retries after the first attempt
inline constexpr int64_t kOpenAiMaxConcurrency = 8; // calls in flight per openai backend without max_concurrency
inline constexpr uint64_t kSeed = 42;               // a local-moe backend's seed
inline constexpr int kMaxRounds = 3;                // a meeting's rounds
inline constexpr double kConsensus = 1.0;           // share of a meeting's members agreeing that ends it early
inline constexpr double kThreshold = 0.7;           // cascade: escalate below it; adaptive: stop at it
inline constexpr int kInitialMembers = 2;           // members an adaptive meeting asks in its first round
inline constexpr double kAgreeFraction = 1.0;       // share of a synthesize's ok inputs that must agree to skip its model

// A decompose coordinator's max_subtasks: the value set, else one subtask per
// member; never below 1, so a plan always has a part to solve.
inline int64_t maxSubtasks(std::optional<int64_t> set, size_t members)
{
    return std::max<int64_t>(1, set.value_or(static_cast<int64_t>(members)));
}

} // namespace conclave::defaults
