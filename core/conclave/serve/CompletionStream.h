#pragma once

#include "conclave/engine/RunObserver.h"
#include "conclave/httpserver/HttpExchange.h"
#include "conclave/serve/ServedTeams.h"

#include <nlohmann/json.hpp>

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace conclave {

// What a finished served run reports back to its server.
struct ServedRunEnd {
    RunStatus status = RunStatus::Running;
    int httpStatus = 200;   // what the client was answered (a stream: 200, whatever came after)
    int64_t wallUs = 0;
    int64_t tokensIn = 0;
    int64_t tokensOut = 0;
    double costUsd = 0;
    std::string error;      // why there was no answer, when there was none
};

// Turns one served run's events into an OpenAI chat completion on its HTTP
// exchange (docs/serve.md, "Streaming"). Streamed: the head and a role chunk
// at once; the answer's tokens as they come when its node streams
// (StreamRule), else the whole text in one chunk when the output ends, with
// `: keep-alive` comments until then; a finish chunk, a usage chunk when asked
// for, `[DONE]`. Not streamed: one JSON body at the end. A run with no answer
// ends a stream with an error event and is otherwise answered 500 (503 when
// the server cancelled it while draining).
class CompletionStream : public RunObserver, public std::enable_shared_from_this<CompletionStream> {
public:
    struct Setup {
        std::string runId;
        std::string model; // the team's id
        int64_t created = 0; // Unix seconds
        bool stream = false;
        bool includeUsage = false;
        StreamRule rule;
        NodeId outputNode;
        std::vector<std::string> ignored;
        std::chrono::steady_clock::time_point arrived;
        std::chrono::milliseconds keepAliveEvery{15'000};
    };
    using FirstContent = std::function<void(double secondsSinceArrival)>;
    using Finished = std::function<void(const ServedRunEnd& end)>;

    CompletionStream(Setup setup, std::shared_ptr<HttpExchange> exchange, FirstContent firstContent,
                     Finished finished);

    // Before the run starts: a stream's head and role chunk.
    void begin();
    // The server is cancelling the run to shut down (the answer says so).
    void draining() { m_draining.store(true); }

    void spanStarted(const Span& span) override;
    void nodeToken(const NodeId& node, SpanId span, std::string_view text, int64_t atUs) override;
    void nodeFinished(const NodeId& node, const NodeResult& result, int64_t atUs) override;
    void runFinished(const RunResult& result) override;

    // The completion's headers: the run id, and the fields ignored.
    std::vector<std::pair<std::string, std::string>> headers() const;

private:
    // id, object, created and model: what every completion and chunk begins with.
    nlohmann::ordered_json head(const char* object) const;
    std::string chunk(const nlohmann::ordered_json& delta, const char* finishReason) const;
    void sendContent(std::string_view text);
    void keepAlive();

    Setup m_setup;
    std::shared_ptr<HttpExchange> m_exchange;
    FirstContent m_firstContent;
    Finished m_finished;
    std::atomic<bool> m_contentDone{false};
    std::atomic<bool> m_draining{false};
    // Observer calls only (the engine serialises them per run).
    std::set<SpanId> m_combineRounds; // a decompose coordinator's "combine" rounds
    std::set<SpanId> m_streamable;    // attempts whose tokens may stream
    SpanId m_streaming = 0;           // the attempt whose tokens were sent
    std::string m_sent;
    bool m_anyContent = false;
    bool m_broken = false; // the sent text is not the start of the answer
    std::string m_answer;
    bool m_answered = false;
};

} // namespace conclave
