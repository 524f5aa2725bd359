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
    struct Reply {
        long status = 0;
        std::string runId;     // x-conclave-run-id
        double clientMs = 0;   // request sent to last byte
        std::string error;     // a transport error, when there was no status
        bool sawDone = false;  // a stream ended with data: [DONE]
    };
    struct Result {
        std::vector<Reply> replies; // in the order they ended
        double wallMs = 0;          // first submit to last end
    };

    static Result run(const std::string& url, const std::string& body, const std::vector<std::string>& headers,
                      int count, int concurrency, std::chrono::milliseconds timeout);
};

} // namespace conclave
