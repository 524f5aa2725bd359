#include "conclave/httpserver/HttpConnection.h"

#include "conclave/util/AsciiText.h"

#include <boost/asio/post.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/error.hpp>
#include <boost/beast/http/chunk_encode.hpp>
#include <boost/beast/http/empty_body.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/write.hpp>

#include <algorithm>
#include <cerrno>
#include <sys/socket.h>

#include <sstream>

namespace conclave {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;

HttpConnection::HttpConnection(net::ip::tcp::socket socket, const HttpServerOptions& options,
                               HttpServerHandler& handler, std::shared_ptr<HttpServerLife> life)
    : m_stream(std::move(socket)), m_options(options), m_handler(handler), m_life(std::move(life))
{
}

void HttpConnection::start()
{
    net::dispatch(m_stream.get_executor(), [self = shared_from_this()] { self->readRequest(self->m_options.readTimeout); });
}

void HttpConnection::post(std::function<void()> work)
{
    net::post(m_stream.get_executor(), std::move(work));
}

void HttpConnection::readRequest(std::chrono::milliseconds timeout)
{
    m_parser.emplace();
    m_parser->header_limit(std::uint32_t(std::min<size_t>(m_options.maxHeaderBytes, UINT32_MAX)));
    m_parser->body_limit(m_options.maxBodyBytes);
    m_stream.expires_after(timeout);
    http::async_read(m_stream, m_buffer, *m_parser,
                     [self = shared_from_this()](beast::error_code ec, size_t) { self->onRead(ec); });
}

void HttpConnection::onRead(beast::error_code ec)
{
    if (m_closed)
        return;
    if (ec == http::error::body_limit) {
        refuse(413, "the request body is larger than " + std::to_string(m_options.maxBodyBytes) + " bytes");
        return;
    }
    if (ec == http::error::header_limit) {
        refuse(431, "the request header is larger than " + std::to_string(m_options.maxHeaderBytes) + " bytes");
        return;
    }
    if (ec && ec.category() == http::make_error_code(http::error::bad_method).category() &&
        ec != http::error::end_of_stream && ec != http::error::partial_message) {
        refuse(400, "malformed request: " + ec.message());
        return;
    }
    if (ec) {  // the client left, the timer fired, or the socket failed
        closeNow();
        return;
    }
    auto message = m_parser->release();
    HttpServerRequest request;
    request.method = std::string(message.method_string());
    request.target = std::string(message.target());
    for (const auto& field : message)
        request.headers[toLowerAscii(std::string(field.name_string()))] = std::string(field.value());
    request.body = std::move(message.body());
    request.version = int(message.version());
    request.keepAlive = message.keep_alive();
    m_requestVersion = request.version;
    m_keepAlive = request.keepAlive;
    m_answering = true;
    m_ended = false;
    m_streaming = false;
    ++m_sequence;
    m_stream.expires_never();
    auto exchange = std::make_shared<HttpExchange>(weak_from_this(), m_life, m_sequence);
    m_self = shared_from_this();
    watchForHangUp();
    m_handler(std::move(request), std::move(exchange));
}

void HttpConnection::watchForHangUp()
{
    // While an answer is being made nothing reads the socket; wait until it is
    // readable and peek: an end of stream is a client that hung up, bytes are
    // a pipelined request, left for the next read.
    m_stream.socket().async_wait(net::socket_base::wait_read,
                                 [self = shared_from_this(), sequence = m_sequence](beast::error_code ec) {
                                     if (self->m_closed || !self->m_answering || sequence != self->m_sequence)
                                         return;
                                     char byte = 0;
                                     const auto n = ::recv(self->m_stream.socket().native_handle(), &byte, 1,
                                                           MSG_PEEK | MSG_DONTWAIT);
                                     const bool nothingYet = n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK);
                                     // 0: it hung up; -1 but for "nothing yet": reset (it closed with
                                     // our answer unread), or another failure of the socket.
                                     const bool gone = n == 0 || (n < 0 && !nothingYet);
                                     if (ec || gone)
                                         self->closeNow();
                                     else if (nothingYet) // woken with nothing to read (seen with two I/O threads)
                                         self->watchForHangUp();
                                 });
}

void HttpConnection::refuse(int status, const std::string& message)
{
    m_answering = true;
    m_keepAlive = false;
    ++m_sequence;
    HttpResponseHead head;
    head.status = status;
    if (m_options.refusal) {
        auto [type, body] = m_options.refusal(status, message);
        head.headers.emplace_back("Content-Type", std::move(type));
        respond(std::move(head), std::move(body));
        return;
    }
    head.headers.emplace_back("Content-Type", "text/plain; charset=utf-8");
    respond(std::move(head), message + "\n");
}

std::string HttpConnection::headText(const HttpResponseHead& head, std::optional<size_t> contentLength, bool chunked)
{
    http::response<http::empty_body> response;
    response.result(unsigned(head.status));
    response.version(head.http10 ? 10 : 11);
    for (const auto& [name, value] : head.headers)
        response.set(name, value);
    if (head.http10 || m_requestVersion < 11 || (!contentLength && !chunked))
        m_keepAlive = false;
    response.keep_alive(m_keepAlive);
    if (chunked)
        response.chunked(true);
    else if (contentLength)
        response.content_length(*contentLength);
    std::ostringstream out;
    out << response.base();  // Beast frames the status line and the fields
    return out.str();
}

void HttpConnection::respond(HttpResponseHead head, std::string body)
{
    if (m_streaming || m_ended)
        return;
    queue(OutKind::Raw, headText(head, body.size(), false) + body);
    answerEnded();
}

void HttpConnection::beginStream(HttpResponseHead head, StreamFraming framing)
{
    if (m_streaming || m_ended)
        return;
    m_streaming = true;
    m_framing = framing;
    queue(OutKind::Raw, headText(head, std::nullopt, framing == StreamFraming::Chunked));
}

void HttpConnection::write(std::string bytes)
{
    if (!m_streaming || m_ended || bytes.empty())
        return;
    queue(m_framing == StreamFraming::Chunked ? OutKind::Chunk : OutKind::Raw, std::move(bytes));
}

void HttpConnection::end()
{
    if (!m_streaming || m_ended)
        return;
    if (m_framing == StreamFraming::Chunked)
        queue(OutKind::LastChunk, {});
    answerEnded();
}

void HttpConnection::answerEnded()
{
    const auto keep = std::move(m_self); // the write pump() starts holds it from here
    m_ended = true;
    m_answering = false;
    m_onClose.clear();  // they belong to the exchange that has just ended
    pump();
}

void HttpConnection::after(std::chrono::milliseconds delay, std::function<void()> action)
{
    if (m_stopping)
        return;
    auto& timer = m_timers.emplace_back(m_stream.get_executor(), delay);
    const auto it = std::prev(m_timers.end());
    timer.async_wait([self = shared_from_this(), it, action = std::move(action)](beast::error_code ec) {
        self->m_timers.erase(it);
        if (!ec && action)
            action();
    });
}

void HttpConnection::onClose(std::function<void()> callback)
{
    m_onClose.push_back(std::move(callback));
}

void HttpConnection::queue(OutKind kind, std::string data)
{
    if (m_closed)
        return;
    m_out.push_back(Out{kind, std::move(data)});
    pump();
}

void HttpConnection::pump()
{
    if (m_writing || m_closed)
        return;
    if (m_out.empty()) {
        m_stream.expires_never();
        if (!m_ended)
            return;
        m_ended = false;
        if (m_closeWhenDone)
            close();
        else if (m_keepAlive)
            readRequest(m_options.idleTimeout);
        else
            closeNow();
        return;
    }
    m_writing = true;
    // A client that stops reading cannot hold a connection for ever.
    m_stream.expires_after(m_options.readTimeout);
    // Everything queued goes out in one gathered write: a stream that fell
    // behind catches up in one system call, not one per token.
    constexpr size_t kMaxBatch = 256;
    m_batchSize = std::min(m_out.size(), kMaxBatch);
    m_chunks.clear();
    m_chunks.reserve(m_batchSize); // never reallocated while their buffers are read
    m_lastChunk.reset();
    m_buffers.clear();
    const auto append = [this](const auto& sequence) {
        for (auto it = net::buffer_sequence_begin(sequence); it != net::buffer_sequence_end(sequence); ++it)
            m_buffers.emplace_back(*it);
    };
    for (size_t i = 0; i < m_batchSize; ++i) {
        const auto& out = m_out[i];
        switch (out.kind) {
        case OutKind::Raw:
            m_buffers.emplace_back(net::buffer(out.data));
            break;
        case OutKind::Chunk:
            append(m_chunks.emplace_back(net::buffer(out.data)));
            break;
        case OutKind::LastChunk: // ends an answer, and the batch
            m_lastChunk.emplace(http::make_chunk_last());
            append(*m_lastChunk);
            m_batchSize = i + 1;
            break;
        }
    }
    net::async_write(m_stream, m_buffers, [self = shared_from_this()](beast::error_code ec, size_t) {
        self->m_writing = false;
        if (ec || self->m_closed) {
            self->closeNow();
            return;
        }
        self->m_out.erase(self->m_out.begin(), self->m_out.begin() + std::ptrdiff_t(self->m_batchSize));
        self->m_batchSize = 0;
        self->pump();
    });
}

void HttpConnection::close()
{
    m_stopping = true;
    for (auto& timer : m_timers)
        timer.cancel();
    closeNow();
}

void HttpConnection::closeWhenDone()
{
    m_closeWhenDone = true;
    if (!m_answering && !m_writing && m_out.empty())
        close();
}

void HttpConnection::closeNow()
{
    const auto keep = std::move(m_self); // gone at the end of this call, not in the middle
    if (m_closed)
        return;
    m_closed = true;
    m_answering = false;
    // A write in progress still reads its batch until it completes.
    if (!m_writing)
        m_out.clear();
    else if (m_out.size() > m_batchSize)
        m_out.erase(m_out.begin() + std::ptrdiff_t(m_batchSize), m_out.end());
    beast::error_code ignored;
    m_stream.socket().shutdown(net::ip::tcp::socket::shutdown_both, ignored);
    m_stream.close();
    auto callbacks = std::move(m_onClose);
    m_onClose.clear();
    for (auto& callback : callbacks)
        callback();
}

} // namespace conclave
