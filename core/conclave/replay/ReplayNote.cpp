#include "conclave/replay/ReplayNote.h"

#include <cstdio>

namespace conclave {

namespace {
constexpr std::string_view kPrefix = "replayed: run ";
constexpr std::string_view kSimulated = "simulated: ";
} // namespace

std::string ReplayNote::make(const RunId& run, SpanId span)
{
    return std::string(kPrefix) + run.str() + " span " + std::to_string(span);
}

bool ReplayNote::marks(std::string_view note)
{
    return note.starts_with(kPrefix);
}

std::string ReplayNote::simulated(std::string_view source)
{
    return std::string(kSimulated) + "not in " + std::string(source);
}

std::string ReplayNote::simulatedAfter(const RunId& run, SpanId span, int64_t servedUs)
{
    char served[32];
    std::snprintf(served, sizeof served, "%.3f s", double(servedUs) / 1e6);
    return std::string(kSimulated) + "cut short in run " + run.str() + " span " + std::to_string(span) + " after " +
           served;
}

bool ReplayNote::marksSimulated(std::string_view note)
{
    return note.starts_with(kSimulated);
}

} // namespace conclave
