#include "conclave/replay/ReplayNote.h"

namespace conclave {

namespace {
constexpr std::string_view kPrefix = "replayed: run ";
}

std::string ReplayNote::make(const RunId& run, SpanId span)
{
    return std::string(kPrefix) + run.str() + " span " + std::to_string(span);
}

bool ReplayNote::marks(std::string_view note)
{
    return note.starts_with(kPrefix);
}

} // namespace conclave
