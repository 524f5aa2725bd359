#include "conclave/httpserver/HttpServer.h"

#include "conclave/httpserver/HttpConnection.h"
#include "conclave/util/ThreadName.h"

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>

#include <algorithm>
#include <thread>
#include <vector>

namespace conclave {

namespace net = boost::asio;
using tcp = net::ip::tcp;

struct HttpServer::Impl {
    HttpServerOptions options;
    HttpServerHandler handler;
    std::shared_ptr<HttpServerLife> life = std::make_shared<HttpServerLife>();
    // Declared after what the connections refer to, so it goes first.
    net::io_context io;
    // On a strand of its own: with several I/O threads, its accept handler
    // and the close that stopAccepting() or stop() posts never run at once.
    tcp::acceptor acceptor{net::make_strand(io)};
    std::optional<net::executor_work_guard<net::io_context::executor_type>> work;
    std::vector<std::thread> threads;
    std::mutex mutex;  // guards the one below
    std::vector<std::weak_ptr<HttpConnection>> connections;
    bool stopped = false;
    uint16_t port = 0;

    void accept();
};

void HttpServer::Impl::accept()
{
    acceptor.async_accept(net::make_strand(io), [this](boost::system::error_code ec, tcp::socket socket) {
        if (ec == net::error::operation_aborted || !acceptor.is_open())
            return;
        if (!ec) {
            socket.set_option(tcp::no_delay(true), ec);
            auto connection = std::make_shared<HttpConnection>(std::move(socket), options, handler, life);
            {
                std::lock_guard lock(mutex);
                std::erase_if(connections, [](const auto& c) { return c.expired(); });
                connections.push_back(connection);
            }
            connection->start();
        }
        accept();  // a failed accept (out of descriptors) does not end the server
    });
}

std::unique_ptr<HttpServer> HttpServer::start(HttpServerOptions options, HttpServerHandler handler, std::string& error)
{
    auto impl = std::make_unique<Impl>();
    impl->options = std::move(options);
    impl->handler = std::move(handler);
    boost::system::error_code ec;
    const auto address = net::ip::make_address(impl->options.host, ec);
    if (ec) {
        error = "\"" + impl->options.host + "\" is not an IP address";
        return nullptr;
    }
    const tcp::endpoint endpoint(address, impl->options.port);
    const auto where = impl->options.host + ":" + std::to_string(impl->options.port);
    impl->acceptor.open(endpoint.protocol(), ec);
    if (!ec)
        impl->acceptor.set_option(net::socket_base::reuse_address(true), ec);
    if (!ec)
        impl->acceptor.bind(endpoint, ec);
    if (!ec)
        impl->acceptor.listen(net::socket_base::max_listen_connections, ec);
    if (ec) {
        error = "cannot listen on " + where + ": " + ec.message();
        return nullptr;
    }
    impl->port = impl->acceptor.local_endpoint(ec).port();
    impl->work.emplace(impl->io.get_executor());
    impl->accept();
    const int threads = std::max(1, impl->options.threads);
    for (int i = 0; i < threads; ++i)
        impl->threads.emplace_back([io = &impl->io] {
            nameThisThread("conclave-http");
            io->run();
        });
    return std::unique_ptr<HttpServer>(new HttpServer(std::move(impl)));
}

HttpServer::HttpServer(std::unique_ptr<Impl> impl) : m_impl(std::move(impl)) {}

HttpServer::~HttpServer() { stop(); }

uint16_t HttpServer::port() const { return m_impl->port; }

const std::string& HttpServer::host() const { return m_impl->options.host; }

void HttpServer::stopAccepting()
{
    std::lock_guard lock(m_impl->life->mutex);
    if (m_impl->life->stopped)
        return;
    net::post(m_impl->acceptor.get_executor(), [impl = m_impl.get()] {
        boost::system::error_code ignored;
        impl->acceptor.close(ignored);
    });
}

void HttpServer::stop(std::chrono::milliseconds grace)
{
    std::vector<std::weak_ptr<HttpConnection>> connections;
    {
        std::lock_guard lock(m_impl->mutex);
        connections = m_impl->connections;
    }
    {
        std::lock_guard lock(m_impl->life->mutex);
        if (m_impl->life->stopped)
            return;
        for (const auto& weak : connections) {
            if (auto c = weak.lock())
                c->post([c] { c->closeWhenDone(); });
        }
    }
    const auto deadline = std::chrono::steady_clock::now() + grace;
    const auto open = [&] {
        return std::any_of(connections.begin(), connections.end(), [](const auto& c) { return !c.expired(); });
    };
    while (open() && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    stop();
}

void HttpServer::stop()
{
    std::vector<std::shared_ptr<HttpConnection>> open;
    {
        std::lock_guard lock(m_impl->mutex);
        if (m_impl->stopped)
            return;
        m_impl->stopped = true;
        for (const auto& weak : m_impl->connections) {
            if (auto c = weak.lock())
                open.push_back(std::move(c));
        }
        m_impl->connections.clear();
    }
    {
        // From here no exchange posts any more work.
        std::lock_guard lock(m_impl->life->mutex);
        m_impl->life->stopped = true;
    }
    // Close the listener and every connection on their own strands; with no
    // work left, the threads return.
    net::post(m_impl->acceptor.get_executor(), [impl = m_impl.get()] {
        boost::system::error_code ignored;
        impl->acceptor.close(ignored);
    });
    for (auto& c : open)
        c->post([c] { c->close(); });
    open.clear();
    m_impl->work.reset();
    for (auto& t : m_impl->threads) {
        if (t.joinable())
            t.join();
    }
}

} // namespace conclave
