#pragma once

#include <cstdint>

// The values Conclave uses when a team file leaves a setting out: one home,
// read by the run plan, the call runner, the meetings, the engine and the
// studio. docs/team-format.md states the same numbers.
namespace conclave::defaults {

inline constexpr int64_t kTimeoutMs = 30000;        // per call attempt
inline constexpr int kRetries = 2;                  // retries after the first attempt
inline constexpr int64_t kOpenAiMaxConcurrency = 8; // calls in flight per openai backend without max_concurrency
inline constexpr uint64_t kSeed = 42;               // a local-moe backend's seed
inline constexpr int kMaxRounds = 3;                // a meeting's rounds
inline constexpr int kInitialMembers = 2;           // members an adaptive meeting asks in its first round
inline constexpr double kAgreeFraction = 1.0;       // share of a synthesize's ok inputs that must agree to skip its model

} // namespace conclave::defaults
