#pragma once

// The scriptable OpenAI-compatible server of tests/support/fake_openai_server.py,
// started on 127.0.0.1 at a random port for the life of this object.
#include <QString>
#include <QStringList>

#include <nlohmann/json.hpp>

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <string>
#include <vector>

class FakeOpenAiServer {
public:
    // Spawned with posix_spawn, not QProcess: a fork() in a process that has
    // threads (QtTest's watchdog, the multi loop) is fatal under TSan.
    explicit FakeOpenAiServer(QStringList extraArgs = {})
    {
        const std::string script = CONCLAVE_TEST_DATA "/../support/fake_openai_server.py";
        std::vector<std::string> args{"python3", script};
        for (const auto& a : extraArgs)
            args.push_back(a.toStdString());
        std::vector<char*> argv;
        for (auto& a : args)
            argv.push_back(a.data());
        argv.push_back(nullptr);
        int in[2];
        int out[2];
        if (::pipe2(in, O_CLOEXEC) != 0 || ::pipe2(out, O_CLOEXEC) != 0)
            return;
        posix_spawn_file_actions_t actions;
        posix_spawn_file_actions_init(&actions);
        posix_spawn_file_actions_adddup2(&actions, in[0], 0);
        posix_spawn_file_actions_adddup2(&actions, out[1], 1);
        const int spawned = posix_spawnp(&m_pid, "python3", &actions, nullptr, argv.data(), environ);
        posix_spawn_file_actions_destroy(&actions);
        ::close(in[0]);
        ::close(out[1]);
        m_stdin = in[1];
        if (spawned != 0) {
            m_pid = 0;
            ::close(out[0]);
            return;
        }
        // "PORT n\n", within ten seconds.
        std::string line;
        pollfd p{out[0], POLLIN, 0};
        while (line.find('\n') == std::string::npos && ::poll(&p, 1, 10000) > 0) {
            char buffer[256];
            const ssize_t n = ::read(out[0], buffer, sizeof buffer);
            if (n <= 0)
                break;
            line.append(buffer, size_t(n));
        }
        ::close(out[0]);
        if (line.starts_with("PORT "))
            m_port = std::atoi(line.c_str() + 5);
    }

    ~FakeOpenAiServer()
    {
        if (m_stdin >= 0)
            ::close(m_stdin);  // the server shuts down at the end of its stdin
        if (m_pid <= 0)
            return;
        for (int i = 0; i < 300; ++i) {
            if (::waitpid(m_pid, nullptr, WNOHANG) == m_pid)
                return;
            ::usleep(10000);
        }
        ::kill(m_pid, SIGKILL);
        ::waitpid(m_pid, nullptr, 0);
    }

    bool ok() const { return m_port > 0; }
    int port() const { return m_port; }
    std::string baseUrl() const { return std::string("http:") + "//127.0.0.1:" + std::to_string(m_port) + "/v1"; }

    // {"requests", "in_flight", "max_in_flight", "dropped", "by_model"}
    nlohmann::json stats() const { return nlohmann::json::parse(request("GET", "/_stats"), nullptr, false); }
    void reset() const { request("POST", "/_reset"); }
    // Lets every request that arrived before now go on past its `hold=K`.
    void release() const { request("POST", "/_release"); }

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

    pid_t m_pid = 0;
    int m_stdin = -1;
    int m_port = 0;
};
