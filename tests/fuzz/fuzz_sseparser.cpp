// The SSE parser: the events of a stream do not depend on how the reads cut it
// (the first byte chooses the cuts), and what it holds back stays bounded.
#include "FuzzCheck.h"

#include "conclave/http/SseParser.h"

#include <vector>

namespace {

std::vector<conclave::SseEvent> eventsOf(std::string_view stream, size_t piece)
{
    conclave::SseParser parser;
    std::vector<conclave::SseEvent> events;
    for (size_t at = 0; at < stream.size(); at += piece) {
        const auto chunk = stream.substr(at, piece);
        for (auto& e : parser.feed(chunk))
            events.push_back(std::move(e));
        conclave::fuzz::check(parser.pending() <= stream.size(), "the parser holds no more than it was given");
    }
    for (auto& e : parser.finish())
        events.push_back(std::move(e));
    conclave::fuzz::check(parser.pending() == 0, "nothing is pending after finish()");
    return events;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    if (size == 0)
        return 0;
    const size_t piece = 1 + data[0] % 7;
    const auto stream = conclave::fuzz::text(data + 1, size - 1);
    const auto whole = eventsOf(stream, stream.size() + 1);
    conclave::fuzz::check(eventsOf(stream, piece) == whole, "the events do not depend on how the reads cut the stream");
    return 0;
}
