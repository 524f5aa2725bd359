#pragma once

#include "conclave/httpserver/HttpExchange.h"

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>

namespace conclave {

struct HttpServerOptions {
    std::string host = "127.0.0.1";
    uint16_t port = 0;  // 0: any free port (see port())
    int threads = 1;    // I/O threads; streams cost no thread of their own
    // A kept-alive connection with no new request for this long is closed.
    std::chrono::milliseconds idleTimeout{std::chrono::seconds(30)};
    // A request's header and body must arrive within this.
    std::chrono::milliseconds readTimeout{std::chrono::seconds(30)};
    size_t maxHeaderBytes = 64 * 1024;
    size_t maxBodyBytes = 8 * 1024 * 1024;
    // The body and its content type of the server's own refusals (400, 413,
    // 431), from the status and what was wrong; unset, that text in plain text.
    std::function<std::pair<std::string, std::string>(int status, const std::string& message)> refusal;
};

using HttpServerHandler = std::function<void(HttpServerRequest request, std::shared_ptr<HttpExchange> exchange)>;

// An asynchronous HTTP/1.1 server on Boost.Beast: Beast parses every request
// and frames every response; one io_context runs every connection, so a
// thousand open streams cost no thread. The handler is called on the
// connection's strand and must not block; it answers through the exchange,
// now or later, from any thread. A malformed request gets 400, a body past
// maxBodyBytes 413, a header past maxHeaderBytes 431, and the connection
// closes. Destroying the server (or stop()) closes every connection and ends
// every pending timer without running it; after stop() returns the handler is
// never called again. Not to be called from the handler's thread.
class HttpServer {
public:
    // Listening at once; null with `error` when it cannot.
    static std::unique_ptr<HttpServer> start(HttpServerOptions options, HttpServerHandler handler, std::string& error);
    ~HttpServer();
    HttpServer(const HttpServer&) = delete;
    HttpServer& operator=(const HttpServer&) = delete;

    // The port it listens on (still the same after stopAccepting()).
    uint16_t port() const;
    const std::string& host() const;
    // Closes the listener: no new connection, while open ones carry on.
    void stopAccepting();
    void stop();
    // A stop that first lets each connection finish writing the answer in
    // hand (and read no further request), for up to `grace`.
    void stop(std::chrono::milliseconds grace);

    struct Impl;

private:
    explicit HttpServer(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> m_impl;
};

} // namespace conclave
