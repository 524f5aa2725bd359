#pragma once

#include "conclave/engine/RunResult.h"

#include <cstdint>
#include <string>

namespace conclave {

// One request that reached a run, as ChatServer::onRunStored reports it once
// the run is stored: what its access-log line says of it (docs/serve.md).
struct ServedRequest {
    std::string runId;
    std::string team;    // the team's id: the `model` the client asked for
    std::string keyName; // empty when the server asks for no key
    int httpStatus = 0;  // what the client was answered (a stream: 200, whatever came after)
    RunStatus runStatus = RunStatus::Running;
    bool stream = false;
    double ms = 0;             // from the request's arrival to its end
    int64_t arrivedUnixMs = 0; // when it arrived, by the system clock
};

} // namespace conclave
