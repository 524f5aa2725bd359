#pragma once

#include "conclave/httpserver/HttpServer.h"
#include "conclave/local/CallResponder.h"

#include <array>
#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace conclave {

// The ways an OpenAI-compatible server frames its answers, each one that a
// client must keep at full concurrency.
enum class ServerShape {
    ChunkedSse,    // SSE in chunks on kept-alive connections
    ClosedSse,     // SSE ended by closing the connection (no length, no chunks)
    LateHeaders,   // headers only with the first token, then SSE ended by closing the connection
    ContentLength, // no streaming: one JSON body with a Content-Length, even when asked to stream
    Http10,        // "HTTP/1.0" status lines: SSE ended by closing the connection
    IdleClose,     // chunked SSE; a kept-alive connection idle for 50 ms is closed by the server
};

const std::array<ServerShape, 6>& allServerShapes();
std::string_view toString(ServerShape shape);
std::optional<ServerShape> serverShapeFromString(std::string_view text);

struct ChatTestServerOptions {
    ServerShape shape = ServerShape::ChunkedSse;
    int replyMs = 100; // from a request's start to its last byte
    int slotCount = 0; // requests answered at once; the rest wait their turn. 0: no limit
    int tokens = 4;    // streamed pieces, evenly spread over replyMs
    std::string answer = "Answer: 4";
    // When set, every chat completion is answered by it instead (a
    // GroundTruthWorld, the simulator): the request's messages, model, `seed`
    // and max_tokens become a ModelRequest (system: the system messages'
    // contents, prompt: the user messages', each joined by "\n\n"); the reply's
    // text and tokens go in the answer and its `usage`; its first chunk streams
    // at ttft, the rest at the end, both times × (1 + loadSlope · (in flight − 1))
    // × responderTimeScale, in flight counted at the server when it arrives.
    // replyMs, tokens and answer are then unused; shapes and slots still apply.
    std::shared_ptr<const CallResponder> responder;
    double responderTimeScale = 1.0;
    uint16_t port = 0; // 0: any free port
};

// An OpenAI-compatible test server on 127.0.0.1 (a free port), on the house's
// HttpServer: POST /v1/chat/completions answers `answer` after `replyMs` in
// the chosen shape (or what its responder says), GET /v1/models lists the
// model "bench". It keeps the arrival and end of every request, so a bench or a test can show how many a
// client kept in flight and how long each wave took — measured where the
// requests arrive, not where they are sent.
class ChatTestServer {
public:
    using Clock = std::chrono::steady_clock;

    static std::unique_ptr<ChatTestServer> start(ChatTestServerOptions options, std::string& error);
    ~ChatTestServer();
    ChatTestServer(const ChatTestServer&) = delete;
    ChatTestServer& operator=(const ChatTestServer&) = delete;

    uint16_t port() const;
    std::string baseUrl() const; // "http://127.0.0.1:PORT/v1"

    struct Exchange {
        Clock::time_point arrived;
        Clock::time_point ended; // when its last byte was handed to the connection
    };
    struct Stats {
        int64_t requests = 0;           // chat completions received
        int peakInFlight = 0;           // the most in hand at once (arrived, not yet answered)
        std::vector<Exchange> answered; // in order of arrival
    };
    Stats stats() const;
    void reset(); // forget what was counted (between waves); answers still due are not counted

    // The walls of consecutive waves of `size` requests in order of arrival:
    // from a wave's first arrival to its last end, in ms.
    static std::vector<double> waveWallsMs(std::vector<Exchange> answered, size_t size);

private:
    explicit ChatTestServer(ChatTestServerOptions options);
    void onRequest(HttpServerRequest request, std::shared_ptr<HttpExchange> exchange);
    // What one request is answered with: its pieces of text and when each is
    // due (ms from the answer's start), its usage and model.
    struct Reply {
        std::vector<std::pair<int64_t, std::string>> pieces;
        int64_t promptTokens = 12;
        int64_t completionTokens = 0;
        std::string model = "bench";
        std::string error; // set: a 400 with this message, at once
    };
    Reply benchReply() const;
    Reply responderReply(const std::string& body, int inFlight) const;
    void answer(bool stream, std::shared_ptr<HttpExchange> exchange, size_t index, uint64_t generation, Reply reply);
    void finished(size_t index, uint64_t generation);

    ChatTestServerOptions m_options;
    mutable std::mutex m_mutex; // guards the seven below
    uint64_t m_generation = 0;  // counted since the last reset()
    int64_t m_requests = 0;
    int m_inFlight = 0;
    int m_peak = 0;
    std::vector<Exchange> m_answered;
    std::deque<std::function<void()>> m_waiting; // requests waiting for a slot
    int m_busy = 0;                              // slots in use (under m_mutex too)
    std::unique_ptr<HttpServer> m_server;        // last: it stops before the rest goes
};

} // namespace conclave
