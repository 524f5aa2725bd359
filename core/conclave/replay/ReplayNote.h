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
};

} // namespace conclave
