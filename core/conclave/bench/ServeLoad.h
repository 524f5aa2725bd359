#pragma once

#include "conclave/http/HttpMultiLoop.h"

#include <chrono>
#include <memory>
#include <string>
#include <vector>

namespace conclave {

// A bounded load on a served endpoint (`conclave bench serve`): `count` POSTs
// of one body through the house's libcurl multi loop, at most `concurrency`
// at once on kept-alive connections, each given up after `timeout`. What each
// request got: its status, the run id the server named, and the time from its
// last byte sent to the response's last byte received, as the client saw it.
class ServeLoad {
public:
    struct Load {
        std::string url;
        std::string body;
        std::vector<std::string> headers;
        int count = 0;
        int concurrency = 1;
        std::chrono::milliseconds timeout{60000};
        // Arrivals evenly spread over this span (request i at i/count of it);
        // zero sends them all at once.
        std::chrono::microseconds spread{0};
        // When set, `concurrency` GETs of it go first, all at once, so the
        // load runs on connections already open, as a client pool's would.
        std::string warmUpUrl;
    };
    struct Reply {
        long status = 0;
        std::string runId;     // x-conclave-run-id
        double sentMs = 0;     // the request's last byte went out, from the load's start
        double endedMs = 0;    // the response's last byte came in, from the load's start
        double clientMs = 0;   // endedMs - sentMs
        std::string error;     // a transport error, when there was no status
        bool sawDone = false;  // a stream ended with data: [DONE]
    };
    struct Result {
        std::vector<Reply> replies; // in the order they ended
        double wallMs = 0;          // first submit to last end
        int peakInFlight = 0;       // most requests between sent and ended at one instant
    };

    static Result run(const Load& load);

    // Most intervals [sentMs, endedMs) that overlap at one instant (EndpointLoad::peakOverlap).
    static int peakOverlap(const std::vector<Reply>& replies);
};

} // namespace conclave
