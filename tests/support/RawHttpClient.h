#pragma once

// A socket that speaks exactly the bytes a test gives it, so a test can see a
// server's framing byte for byte (and send it what no HTTP client would).
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <string>

namespace testsupport {

class RawHttpClient {
public:
    explicit RawHttpClient(uint16_t port)
    {
        m_fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_port = htons(port);
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        if (::connect(m_fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
            ::close(m_fd);
            m_fd = -1;
        }
    }
    ~RawHttpClient()
    {
        if (m_fd >= 0)
            ::close(m_fd);
    }
    RawHttpClient(const RawHttpClient&) = delete;
    RawHttpClient& operator=(const RawHttpClient&) = delete;

    bool connected() const { return m_fd >= 0; }

    bool send(const std::string& bytes)
    {
        size_t sent = 0;
        while (m_fd >= 0 && sent < bytes.size()) {
            const ssize_t n = ::send(m_fd, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
            if (n <= 0)
                return false;
            sent += size_t(n);
        }
        return sent == bytes.size();
    }

    // Reads until `until` appears in what has arrived, the server closes, or
    // `timeout` passes; returns everything read so far (kept for later calls).
    std::string readUntil(const std::string& until, std::chrono::milliseconds timeout)
    {
        const auto deadline = std::chrono::steady_clock::now() + timeout;
        while (m_fd >= 0 && !m_closed && (until.empty() || m_in.find(until) == std::string::npos)) {
            const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
            if (left.count() <= 0)
                break;
            pollfd p{m_fd, POLLIN, 0};
            if (::poll(&p, 1, int(left.count())) <= 0)
                break;
            char buffer[4096];
            const ssize_t n = ::recv(m_fd, buffer, sizeof buffer, 0);
            if (n <= 0) {
                m_closed = true;
                break;
            }
            m_in.append(buffer, size_t(n));
        }
        return m_in;
    }
    // Reads until the server closes the connection (or `timeout`).
    std::string readToClose(std::chrono::milliseconds timeout) { return readUntil({}, timeout); }

    bool closedByServer() const { return m_closed; }
    void forget() { m_in.clear(); }

private:
    int m_fd = -1;
    bool m_closed = false;
    std::string m_in;
};

} // namespace testsupport
