#pragma once

#include "conclave/store/StoredAttempt.h"

#include <vector>

namespace conclave {

// One call as it was recorded: the attempts one run made of it on one model,
// in the order they were made (never empty). A replay's n-th attempt of the
// call on that model gets attempts[n - 1].
struct RecordedCall {
    std::vector<StoredAttempt> attempts;

    const RunId& run() const { return attempts.front().runId; }
    uint64_t seed() const { return attempts.front().seed; }
};

} // namespace conclave
