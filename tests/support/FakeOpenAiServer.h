#pragma once

// The scriptable OpenAI-compatible server of tests/support/fake_openai_server.py,
// started on 127.0.0.1 at a random port for the life of this object.
#include <QCoreApplication>
#include <QProcess>
#include <QString>
#include <QStringList>

#include <nlohmann/json.hpp>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <string>

class FakeOpenAiServer {
public:
    explicit FakeOpenAiServer(QStringList extraArgs = {})
    {
        const QString script = QStringLiteral(CONCLAVE_TEST_DATA "/../support/fake_openai_server.py");
        m_process.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        m_process.start(QStringLiteral("python3"), QStringList{script} + extraArgs);
        if (!m_process.waitForStarted(10000))
            return;
        while (m_process.waitForReadyRead(10000) || m_process.canReadLine()) {
            if (!m_process.canReadLine())
                continue;
            const auto line = QString::fromUtf8(m_process.readLine()).trimmed();
            if (line.startsWith(QStringLiteral("PORT "))) {
                m_port = line.mid(5).toInt();
                break;
            }
        }
    }

    ~FakeOpenAiServer()
    {
        m_process.closeWriteChannel();  // the server shuts down at the end of its stdin
        if (!m_process.waitForFinished(3000)) {
            m_process.kill();
            m_process.waitForFinished(3000);
        }
    }

    bool ok() const { return m_port > 0; }
    int port() const { return m_port; }
    std::string baseUrl() const { return std::string("http:") + "//127.0.0.1:" + std::to_string(m_port) + "/v1"; }

    // {"requests", "in_flight", "max_in_flight", "by_model"}
    nlohmann::json stats() const { return nlohmann::json::parse(request("GET", "/_stats"), nullptr, false); }
    void reset() const { request("POST", "/_reset"); }

private:
    // A blocking HTTP/1.0 exchange; the body of the answer.
    std::string request(const char* method, const char* path) const
    {
        const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in addr{};
        addr.sin_family = AF_INET;
        addr.sin_port = htons(uint16_t(m_port));
        addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        std::string answer;
        if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0) {
            const std::string text = std::string(method) + " " + path +
                                     " HTTP/1.0\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";
            if (::send(fd, text.data(), text.size(), 0) == ssize_t(text.size())) {
                char buffer[4096];
                for (ssize_t n; (n = ::recv(fd, buffer, sizeof buffer, 0)) > 0;)
                    answer.append(buffer, size_t(n));
            }
        }
        ::close(fd);
        const auto body = answer.find("\r\n\r\n");
        return body == std::string::npos ? std::string() : answer.substr(body + 4);
    }

    QProcess m_process;
    int m_port = 0;
};
