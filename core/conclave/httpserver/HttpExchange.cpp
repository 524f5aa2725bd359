#include "conclave/httpserver/HttpExchange.h"

#include "conclave/httpserver/HttpConnection.h"

namespace conclave {

HttpExchange::HttpExchange(std::weak_ptr<HttpConnection> connection, std::shared_ptr<HttpServerLife> life,
                           uint64_t sequence)
    : m_connection(std::move(connection)), m_life(std::move(life)), m_sequence(sequence)
{
}

void HttpExchange::post(std::function<void(HttpConnection&)> work, bool always) const
{
    // Under the life's lock, so that the connection is posted to, and let go
    // of, before a stopping server destroys its io_context.
    std::lock_guard lock(m_life->mutex);
    if (m_life->stopped)
        return;
    auto connection = m_connection.lock();
    if (!connection)
        return;
    HttpConnection& c = *connection;
    c.post([connection = std::move(connection), work = std::move(work), always, sequence = m_sequence] {
        if (always || connection->answering(sequence))
            work(*connection);
    });
}

void HttpExchange::respond(HttpResponseHead head, std::string body)
{
    post([head = std::move(head), body = std::move(body)](HttpConnection& c) mutable {
        c.respond(std::move(head), std::move(body));
    });
}

void HttpExchange::beginStream(HttpResponseHead head, StreamFraming framing)
{
    post([head = std::move(head), framing](HttpConnection& c) mutable { c.beginStream(std::move(head), framing); });
}

void HttpExchange::write(std::string bytes)
{
    post([bytes = std::move(bytes)](HttpConnection& c) mutable { c.write(std::move(bytes)); });
}

void HttpExchange::end()
{
    post([](HttpConnection& c) { c.end(); });
}

void HttpExchange::after(std::chrono::milliseconds delay, std::function<void()> action)
{
    post([delay, action = std::move(action)](HttpConnection& c) mutable { c.after(delay, std::move(action)); }, true);
}

void HttpExchange::onClose(std::function<void()> callback)
{
    post([callback = std::move(callback)](HttpConnection& c) mutable { c.onClose(std::move(callback)); });
}

} // namespace conclave
