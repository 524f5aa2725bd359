#include "BenchServer.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <string>

namespace conclave::cli {

namespace {

bool sendAll(int fd, const std::string& data)
{
    size_t sent = 0;
    while (sent < data.size()) {
        const ssize_t n = ::send(fd, data.data() + sent, data.size() - sent, MSG_NOSIGNAL);
        if (n <= 0)
            return false;
        sent += size_t(n);
    }
    return true;
}

size_t contentLength(const std::string& headers)
{
    // Header names are case-insensitive.
    std::string lower = headers;
    for (auto& c : lower)
        c = char(std::tolower(static_cast<unsigned char>(c)));
    const auto at = lower.find("content-length:");
    return at == std::string::npos ? 0 : size_t(std::strtoull(lower.c_str() + at + 15, nullptr, 10));
}

} // namespace

BenchServer::BenchServer(int slots, int replyMs) : m_slots(slots), m_replyMs(replyMs)
{
    m_listen = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (m_listen < 0)
        return;
    const int yes = 1;
    ::setsockopt(m_listen, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof address;
    if (::bind(m_listen, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 || ::listen(m_listen, 256) != 0 ||
        ::getsockname(m_listen, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
        ::close(m_listen);
        m_listen = -1;
        return;
    }
    m_port = ntohs(address.sin_port);
    m_acceptor = std::thread([this] { acceptLoop(); });
}

BenchServer::~BenchServer()
{
    m_stop.store(true);
    m_slotFree.notify_all();
    if (m_acceptor.joinable())
        m_acceptor.join();
    {
        std::lock_guard lock(m_mutex);
        for (const int fd : m_connections)
            ::shutdown(fd, SHUT_RDWR);
    }
    for (auto& thread : m_threads)
        thread.join();
    if (m_listen >= 0)
        ::close(m_listen);
}

void BenchServer::acceptLoop()
{
    while (!m_stop.load()) {
        pollfd p{m_listen, POLLIN, 0};
        if (::poll(&p, 1, 50) <= 0)
            continue;
        const int fd = ::accept4(m_listen, nullptr, nullptr, SOCK_CLOEXEC);
        if (fd < 0)
            continue;
        std::lock_guard lock(m_mutex);
        m_connections.push_back(fd);
        m_threads.emplace_back([this, fd] { serve(fd); });
    }
}

void BenchServer::serve(int fd)
{
    std::string buffer;
    char chunk[16384];
    while (!m_stop.load()) {
        const auto end = buffer.find("\r\n\r\n");
        if (end != std::string::npos) {
            const std::string headers = buffer.substr(0, end);
            const size_t total = end + 4 + contentLength(headers);
            if (buffer.size() >= total) {
                buffer.erase(0, total);
                answer(fd, headers.find("Connection: close") == std::string::npos);
                continue;
            }
        }
        pollfd p{fd, POLLIN, 0};
        if (::poll(&p, 1, 100) <= 0)
            continue;
        const ssize_t n = ::recv(fd, chunk, sizeof chunk, 0);
        if (n <= 0)
            break;
        buffer.append(chunk, size_t(n));
    }
    ::close(fd);
}

void BenchServer::answer(int fd, bool keepAlive)
{
    ++m_requests;
    const int now = ++m_inFlight;
    int seen = m_maxInFlight.load();
    while (now > seen && !m_maxInFlight.compare_exchange_weak(seen, now)) {
    }
    {
        std::unique_lock lock(m_mutex);
        m_slotFree.wait(lock, [&] { return m_busy < m_slots || m_stop.load(); });
        ++m_busy;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(m_replyMs));
    {
        std::lock_guard lock(m_mutex);
        --m_busy;
    }
    m_slotFree.notify_one();
    const std::string body = R"({"id":"bench","object":"chat.completion","choices":[{"index":0,)"
                             R"("message":{"role":"assistant","content":"Answer: 4\nConfidence: 0.90"},)"
                             R"("finish_reason":"stop"}],"usage":{"prompt_tokens":40,"completion_tokens":8}})";
    --m_inFlight;
    sendAll(fd, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " + std::to_string(body.size()) +
                    (keepAlive ? "\r\n" : "\r\nConnection: close\r\n") + "\r\n" + body);
}

} // namespace conclave::cli
