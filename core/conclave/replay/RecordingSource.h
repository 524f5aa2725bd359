#pragma once

#include "conclave/engine/ModelBackend.h"
#include "conclave/replay/RecordedCall.h"

#include <string>
#include <vector>

namespace conclave {

// Where a recorded backend finds what to replay. Immutable once made, so the
// runs of an experiment share one on any thread.
class RecordingSource {
public:
    virtual ~RecordingSource() = default;

    // The recorded calls `request` may replay, in a fixed order (none: it was
    // not recorded). Its attempt number is not part of the match: the
    // backend walks the chosen call's attempts itself.
    virtual std::vector<const RecordedCall*> find(const ModelRequest& request) const = 0;
    // What it replays, for messages: "experiments e-1, e-2", "run 3f2a…".
    virtual std::string describe() const = 0;
    // How many call attempts it holds.
    virtual size_t attempts() const = 0;
};

} // namespace conclave
