#pragma once

#include "conclave/bench/ChatTestServer.h"

#include <optional>
#include <string>
#include <vector>

namespace conclave {

// One shape and one N of `conclave bench http`, as the server saw it.
struct ShapeMeasurement {
    ServerShape shape = ServerShape::ChunkedSse;
    int n = 0;                        // max_concurrency, and the size of a wave
    int calls = 0;                    // 4N, then N after the idle pause
    int serverPeak = 0;               // the most requests the server had in hand at once
    int clientPeak = 0;               // the same, as the client measured it (EndpointLoad)
    std::vector<double> waveWallsMs;  // the first round's waves of N, first arrival to last end
    double callsPerSecond = 0;        // the first round
    int failed = 0;                   // calls that did not end with an answer, both rounds
    int64_t retries = 0;              // requests the server received beyond the calls made
    std::string firstError;
};

// Against a ChatTestServer of one shape with `replyMs` replies: 4N streamed
// one-token calls behind max_concurrency N through the engine's multi loop,
// then, after `idleMs` with no request (past the idle-close shape's 50 ms),
// a second wave of N. Null with `error` when the server cannot listen.
class HttpShapeBench {
public:
    static std::optional<ShapeMeasurement> measure(ServerShape shape, int n, int replyMs, int idleMs,
                                                   std::string& error);
};

} // namespace conclave
