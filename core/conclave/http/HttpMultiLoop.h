#pragma once

#include "conclave/http/EndpointLimits.h"

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace conclave {

struct HttpRequest {
    std::string url;
    bool post = false;
    std::string body;
    std::vector<std::string> headers;  // "Name: value"
    std::string caFile;                // extra trust anchors; verification is always on
    int64_t connectTimeoutMs = 10000;
    // Stall detection: after the first byte, a gap this long with no byte at
    // all fails the transfer (a low-speed limit of one byte). 0: none.
    int64_t stallMs = 0;
    std::shared_ptr<EndpointLimits> limits;  // null: no limits
};

struct HttpResponse {
    long status = 0;                            // 0 when no response arrived
    std::map<std::string, std::string> headers; // names in lower case
    bool cancelled = false;
    bool stalled = false;
    bool aborted = false;          // the handler's onData asked to stop
    int curlCode = 0;              // 0 when the transfer completed
    std::string transportError;    // what went wrong below HTTP (connect, TLS, a cut)
    bool retryableTransport = false;
    // When the request went out — libcurl's pretransfer moment, when a
    // connection was ready for it (none if it never got that far) — and when
    // the transfer ended.
    std::optional<std::chrono::steady_clock::time_point> requestSent;
    std::chrono::steady_clock::time_point ended;
    // When the endpoint's limits admitted the transfer (none if it never got
    // that far), and the transfers then in flight on it, this one included.
    std::optional<std::chrono::steady_clock::time_point> admitted;
    int64_t inflight = 0;
};

struct HttpHandlers {
    // Body bytes as they arrive, with the status and headers so far; false
    // stops the transfer. On the loop thread.
    std::function<bool(const HttpResponse& head, std::string_view bytes)> onData;
    // Exactly once, on the loop thread (or on the thread destroying the loop).
    std::function<void(HttpResponse response)> onDone;
};

// One thread and one libcurl multi handle for every HTTP transfer of an
// engine: no thread per request. Transfers wait in one queue until their
// endpoint's limits admit them; then they run concurrently on the multi
// handle. submit() and cancel() are thread-safe, never block on the network
// and never call back on the caller's stack; a cancel takes effect within
// milliseconds (the loop is woken). Destroying the loop ends every transfer
// as cancelled.
class HttpMultiLoop {
public:
    using TransferId = uint64_t;

    HttpMultiLoop();
    ~HttpMultiLoop();
    HttpMultiLoop(const HttpMultiLoop&) = delete;
    HttpMultiLoop& operator=(const HttpMultiLoop&) = delete;

    TransferId submit(HttpRequest request, HttpHandlers handlers);
    void cancel(TransferId id);

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

} // namespace conclave
