#pragma once

#include "conclave/engine/Span.h"
#include "conclave/store/StoredRun.h"

#include <string>
#include <string_view>

namespace conclave {

// The note on an attempt span answered from a recording, naming the attempt
// it replays: "replayed: run R span S". One spelling, read back by counting
// (a trial's replayed_calls) and by anyone who follows the note to its source.
struct ReplayNote {
    static std::string make(const RunId& run, SpanId span);
    // Whether an attempt's note says it was replayed.
    static bool marks(std::string_view note);

    // A what-if's call the simulator answered (docs/whatif.md): "simulated: not in run R" for a call
    // the run did not make (`source`: RecordingSource::describe()), "simulated: cut short in run R
    // span S after 1.250 s" for one it cut short.
    static std::string simulated(std::string_view source);
    static std::string simulatedAfter(const RunId& run, SpanId span, int64_t servedUs);
    static bool marksSimulated(std::string_view note);
};

} // namespace conclave
