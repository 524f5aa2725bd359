#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace conclave {

class HttpConnection;
struct HttpServerLife;

// One request as the server read it (Beast parsed it; nothing here is hand-parsed).
struct HttpServerRequest {
    std::string method;                         // "GET", "POST", …
    std::string target;                         // "/v1/chat/completions?x=1"
    std::map<std::string, std::string> headers; // names in lower case
    std::string body;
    int version = 11;                           // 10 or 11
    bool keepAlive = true;                      // what the client asked for
};

struct HttpResponseHead {
    int status = 200;
    std::vector<std::pair<std::string, std::string>> headers;  // besides the framing ones
    bool http10 = false;  // an "HTTP/1.0" status line; the connection closes after the response
};

// How a streamed body ends: with a last chunk (the connection may stay open),
// or by closing the connection (an HTTP/1.0-style stream with no length).
enum class StreamFraming { Chunked, CloseDelimited };

// The answer to one request. Thread-safe: every call is carried out on the
// connection's own strand, in call order, and never runs the caller's code on
// the caller's stack. Exactly one of respond() or beginStream()…end() per
// exchange; calls after the answer has ended, or after the client went away,
// do nothing. When the client goes away before the answer has ended (a read
// or write fails, or the server stops) the onClose callbacks run once, on the
// strand; registered after that, or after the answer ended, they never run.
class HttpExchange {
public:
    HttpExchange(std::weak_ptr<HttpConnection> connection, std::shared_ptr<HttpServerLife> life, uint64_t sequence);

    // A whole answer with a Content-Length.
    void respond(HttpResponseHead head, std::string body);
    void beginStream(HttpResponseHead head, StreamFraming framing);
    void write(std::string bytes);
    void end();
    // Runs `action` on the connection's strand after `delay`, unless the
    // server stops first: a timer that costs no thread.
    void after(std::chrono::milliseconds delay, std::function<void()> action);
    void onClose(std::function<void()> callback);

private:
    // Runs `work` on the connection's strand if the server still runs and,
    // unless `always`, while the connection is still on this exchange's request.
    void post(std::function<void(HttpConnection&)> work, bool always = false) const;

    std::weak_ptr<HttpConnection> m_connection;
    std::shared_ptr<HttpServerLife> m_life;
    uint64_t m_sequence;
};

} // namespace conclave
