#pragma once

#include "conclave/engine/ThreadPool.h"
#include "conclave/httpserver/HttpServer.h"
#include "conclave/serve/AccessLog.h"
#include "conclave/serve/ApiKeys.h"
#include "conclave/serve/KeyLimits.h"
#include "conclave/serve/ServeMetrics.h"
#include "conclave/serve/ServedRequest.h"
#include "conclave/serve/ServedTeams.h"

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <ostream>
#include <set>
#include <string>

namespace conclave {

class Engine;
class RunStore;

struct ChatServerOptions {
    std::string host = "127.0.0.1";
    uint16_t port = 8080; // 0: any free port
    ServeInput input = ServeInput::LastUser; // a team's own (FILE:transcript) wins
    int maxConcurrency = 64; // runs at once
    int maxQueue = 256;      // requests waiting for a run
    size_t maxBodyBytes = 1024 * 1024;
    std::chrono::milliseconds headerTimeout{10'000};
    std::chrono::milliseconds idleTimeout{60'000};
    std::chrono::milliseconds keepAliveEvery{15'000};
    std::optional<ApiKeys> keys; // unset: no key asked for (loopback only)
    std::ostream* accessLog = nullptr;
    bool storeText = true; // false: prompts, outputs and span texts are not stored
    int keepRuns = 0;      // > 0: only the newest served runs are kept
    int ioThreads = 2;     // HTTP I/O threads (reading, parsing, admitting, writing)
};

// `conclave serve` (docs/serve.md): teams as an OpenAI-compatible endpoint on
// the house's HttpServer. GET /v1/models, POST /v1/chat/completions (each
// request a run, stored as source `serve` under its key's name), GET /healthz
// and GET /metrics. Admission, in order: the key, the body, the team and the
// key's access to it, the input, the key's limits (KeyLimits), then a run
// slot — up to maxConcurrency runs, then up to maxQueue waiting, then 503.
// A client that goes away cancels its run (or leaves the queue); every run
// that started is stored complete, however it ended. drain() (SIGTERM) stops
// accepting, lets runs finish for a while, cancels the rest and waits for
// them. The handler never blocks on a run: runs end on engine threads, and
// their bookkeeping happens on the server's own worker thread.
class ChatServer {
public:
    static std::unique_ptr<ChatServer> start(Engine& engine, RunStore& store, std::shared_ptr<const ServedTeams> teams,
                                             ChatServerOptions options, std::string& error);
    ~ChatServer();
    ChatServer(const ChatServer&) = delete;
    ChatServer& operator=(const ChatServer&) = delete;

    uint16_t port() const;
    // A reload: requests from now on see these teams; those in flight keep theirs.
    void setTeams(std::shared_ptr<const ServedTeams> teams);
    std::shared_ptr<const ServedTeams> teams() const;
    // Stops accepting and answers 503 to new requests and to those queued;
    // runs may finish until `within` has passed, then the rest are cancelled.
    // Returns when every run has ended and is stored, and the server has stopped.
    // How many runs it had to cancel.
    int drain(std::chrono::milliseconds within);
    const ServeMetrics& metrics() const { return m_metrics; }
    // Called on the server's worker thread after each served run is stored
    // (the studio's request list and history), never while drain() holds its lock.
    void onRunStored(std::function<void(const ServedRequest& request)> callback);

    struct Request; // one admitted request

private:
    ChatServer(Engine& engine, RunStore& store, std::shared_ptr<const ServedTeams> teams, ChatServerOptions options);
    void handle(HttpServerRequest request, std::shared_ptr<HttpExchange> exchange);
    void completions(HttpServerRequest& request, const std::shared_ptr<HttpExchange>& exchange,
                     std::chrono::steady_clock::time_point arrived);
    void models(const HttpServerRequest& request, const std::shared_ptr<HttpExchange>& exchange);
    // The key the request presents, or the error that refuses it; null key: none asked for.
    std::variant<const ApiKey*, ServeError> authorise(const HttpServerRequest& request) const;
    void refuse(const std::shared_ptr<HttpExchange>& exchange, const ServeError& error, const std::string& team,
                const HttpServerRequest& request, const std::string& keyName);
    void launch(const std::shared_ptr<Request>& request);
    void finished(const std::shared_ptr<Request>& request);
    // Settles the key's limits and writes the access-log line; `ms` from arrival to the end.
    void release(const std::shared_ptr<Request>& request, int status, const std::string& runStatus, double ms);
    void startNext();

    Engine& m_engine;
    RunStore& m_store;
    ChatServerOptions m_options;
    ServeMetrics m_metrics;
    AccessLog m_log;
    KeyLimits m_limits;
    std::function<void(const ServedRequest&)> m_onRunStored;

    mutable std::mutex m_mutex; // guards what follows
    std::condition_variable m_changed;
    std::shared_ptr<const ServedTeams> m_teams;
    std::deque<std::shared_ptr<Request>> m_queue;
    std::set<std::shared_ptr<Request>> m_active; // admitted to a run slot (starting or running)
    bool m_draining = false;
    int m_sincePrune = 0;

    ThreadPool m_worker{1, "conclave-serve"};
    std::unique_ptr<HttpServer> m_http; // last: stopped first
};

} // namespace conclave
