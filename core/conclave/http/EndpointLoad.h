#pragma once

#include "conclave/http/EndpointLimits.h"
#include "conclave/http/HttpMultiLoop.h"
#include "conclave/http/OpenAiSettings.h"

#include <chrono>
#include <memory>
#include <string>
#include <vector>

namespace conclave {

struct EndpointLoadResult {
    int calls = 0;
    int failed = 0;
    int peakInFlight = 0;  // the most requests at the server at once, as the client saw them
    double wallMs = 0;     // from the first submit to the last end
    std::string firstError;
};

// Sends many chat completions to one endpoint at once, through the same multi
// loop, limits and call decoding as a run, and measures how many the client
// really kept in flight. A request counts as in flight from the moment its
// last byte went out until its transfer ended: a request waiting for a
// connection, or held back by libcurl, is not.
class EndpointLoad {
public:
    using Clock = std::chrono::steady_clock;

    // `calls` one-token completions of `model` (streamed as the settings
    // say), admitted by `limits` (null: no limit); each is given up after
    // `timeout`. Blocks until every call has ended.
    static EndpointLoadResult run(HttpMultiLoop& loop, std::shared_ptr<const OpenAiSettings> settings,
                                  std::shared_ptr<EndpointLimits> limits, const std::string& model, int calls,
                                  std::chrono::milliseconds timeout);

    struct Interval {
        Clock::time_point begin;
        Clock::time_point end;
    };
    // The most intervals that overlap at one instant; one that ends where
    // another begins does not overlap it.
    static int peakOverlap(std::vector<Interval> intervals);
};

} // namespace conclave
