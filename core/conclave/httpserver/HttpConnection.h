#pragma once

// Internal to httpserver/: the one header of the folder that names Beast, so
// that only these few files pay for compiling it.

#include "conclave/httpserver/HttpExchange.h"
#include "conclave/httpserver/HttpServer.h"

#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/chunk_encode.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/string_body.hpp>

#include <deque>
#include <list>
#include <memory>
#include <mutex>
#include <optional>

namespace conclave {

// What the connections share with their server: whether it is stopping. An
// exchange posts to a strand only under this lock while the server still
// runs, so no call reaches an io_context that is going away.
struct HttpServerLife {
    std::mutex mutex;
    bool stopped = false;
};

// One client connection: read a request (Beast's parser, with limits), hand it
// to the handler, write the answer as the exchange sends it, then read the
// next request on a kept-alive connection or close. Everything runs on the
// connection's strand.
class HttpConnection : public std::enable_shared_from_this<HttpConnection> {
public:
    HttpConnection(boost::asio::ip::tcp::socket socket, const HttpServerOptions& options, HttpServerHandler& handler,
                   std::shared_ptr<HttpServerLife> life);

    void start();
    // Posts `work` to the strand. The caller holds the life's lock and has
    // seen the server running.
    void post(std::function<void()> work);
    // On the strand: the server is stopping.
    void close();
    // On the strand: close once the answer in hand (if any) is written; read no further request.
    void closeWhenDone();

    // On the strand only (the exchange posts them).
    void respond(HttpResponseHead head, std::string body);
    void beginStream(HttpResponseHead head, StreamFraming framing);
    void write(std::string bytes);
    void end();
    void after(std::chrono::milliseconds delay, std::function<void()> action);
    void onClose(std::function<void()> callback);
    // True while request number `sequence` is in hand and its answer has not ended.
    bool answering(uint64_t sequence) const { return m_answering && sequence == m_sequence; }

private:
    enum class OutKind { Raw, Chunk, LastChunk };
    struct Out {
        OutKind kind = OutKind::Raw;
        std::string data;
    };

    void readRequest(std::chrono::milliseconds timeout);
    void onRead(boost::beast::error_code ec);
    void watchForHangUp();
    void refuse(int status, const std::string& message);
    void queue(OutKind kind, std::string data);
    void pump();
    void answerEnded();
    void closeNow();
    std::string headText(const HttpResponseHead& head, std::optional<size_t> contentLength, bool chunked);

    boost::beast::tcp_stream m_stream;
    const HttpServerOptions& m_options;
    HttpServerHandler& m_handler;
    std::shared_ptr<HttpServerLife> m_life;
    boost::beast::flat_buffer m_buffer;
    std::optional<boost::beast::http::request_parser<boost::beast::http::string_body>> m_parser;

    // Strand only.
    std::deque<Out> m_out;
    // The write in flight: the first m_batchSize entries of m_out, gathered
    // into one write (their chunk framings kept alive here until it ends).
    size_t m_batchSize = 0;
    std::vector<boost::beast::http::chunk_body<boost::asio::const_buffer>> m_chunks;
    std::optional<boost::beast::http::chunk_last<boost::beast::http::chunk_crlf>> m_lastChunk;
    std::vector<boost::asio::const_buffer> m_buffers;
    std::list<boost::asio::steady_timer> m_timers;
    std::vector<std::function<void()>> m_onClose;
    bool m_writing = false;
    bool m_answering = false;     // a request is in hand and its answer has not ended
    // Itself, while an answer is owed: its exchange holds it only weakly, and
    // no operation of its own may be pending then (a hang-up watch that woke
    // to a pipelined request is not re-armed). Released when the answer ends
    // or the connection closes, on the strand.
    std::shared_ptr<HttpConnection> m_self;
    bool m_ended = false;         // the answer ended; once written, read on or close
    bool m_keepAlive = false;     // the connection stays open after this answer
    bool m_streaming = false;
    StreamFraming m_framing = StreamFraming::Chunked;
    int m_requestVersion = 11;
    uint64_t m_sequence = 0;
    bool m_closed = false;
    bool m_stopping = false;  // the server is stopping: no new timers
    bool m_closeWhenDone = false; // the server is stopping gracefully: no further request
};

} // namespace conclave
