#pragma once

#include <cstdint>
#include <string>

namespace conclave {

// Who is writing a run: enough to tell, later, whether that process is still
// alive (a pid alone may have been reused, so its start time goes with it).
struct ProcessIdentity {
    std::string host;
    int64_t pid = 0;
    int64_t startTime = 0; // clock ticks since boot (/proc/PID/stat field 22)

    static ProcessIdentity current();
    // Whether the process is alive on this host; a run from another host counts as alive.
    bool alive() const;
};

} // namespace conclave
