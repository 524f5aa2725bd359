#pragma once

// Internal to serve/: one admitted request of ChatServer, shared by the
// file that admits it (ChatServer.cpp) and the one that runs it (ChatServerRuns.cpp).

#include "conclave/engine/Run.h"
#include "conclave/serve/ChatServer.h"
#include "conclave/serve/CompletionStream.h"
#include "conclave/store/RunRecorder.h"

#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

namespace conclave {

struct ChatServer::Request {
    std::shared_ptr<HttpExchange> exchange;
    std::shared_ptr<const ServedTeams> teams; // keeps `team` alive across a reload
    const ServedTeam* team = nullptr;
    ChatCompletionRequest body;
    std::string input;
    std::optional<KeyLimits::Ticket> ticket;
    std::string keyName;
    std::string method;
    std::string path;
    std::chrono::steady_clock::time_point arrived;
    std::chrono::system_clock::time_point arrivedAt;

    std::mutex mutex; // guards what follows; held while the run starts
    bool gone = false;     // the client went away
    bool drained = false;  // the server cancels it to shut down
    std::unique_ptr<RunRecorder> recorder;
    std::shared_ptr<Run> run;
    std::shared_ptr<CompletionStream> stream;
    ServedRunEnd end; // written by the run's last event, read after run->wait()
};

} // namespace conclave
