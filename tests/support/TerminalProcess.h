#pragma once

// A program run as at a user's terminal: its stderr is a pseudo-terminal (so
// isatty(2) holds and the CLI draws its live progress line there), its stdout
// a pipe, its stdin /dev/null. The terminal is raw, so the test reads exactly
// the bytes the program wrote ("\n", not "\r\n"). Spawned with posix_spawn,
// not fork(), like FakeOpenAiServer: forking a threaded process is fatal
// under TSan.
#include <QString>
#include <QStringList>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <vector>

namespace testsupport {

class TerminalProcess {
public:
    TerminalProcess(const QString& program, const QStringList& args)
    {
        m_terminalFd = ::posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
        char name[128];
        if (m_terminalFd < 0 || ::grantpt(m_terminalFd) != 0 || ::unlockpt(m_terminalFd) != 0 ||
            ::ptsname_r(m_terminalFd, name, sizeof name) != 0)
            return;
        termios mode{};
        if (::tcgetattr(m_terminalFd, &mode) == 0) {
            ::cfmakeraw(&mode);
            ::tcsetattr(m_terminalFd, TCSANOW, &mode);
        }
        int out[2];
        if (::pipe2(out, O_CLOEXEC) != 0)
            return;
        std::vector<std::string> words{program.toStdString()};
        for (const auto& a : args)
            words.push_back(a.toStdString());
        std::vector<char*> argv;
        for (auto& w : words)
            argv.push_back(w.data());
        argv.push_back(nullptr);
        posix_spawn_file_actions_t actions;
        posix_spawn_file_actions_init(&actions);
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
        posix_spawn_file_actions_adddup2(&actions, out[1], 1);
        posix_spawn_file_actions_addopen(&actions, 2, name, O_RDWR | O_NOCTTY, 0);
        if (::posix_spawn(&m_pid, words.front().c_str(), &actions, nullptr, argv.data(), environ) != 0)
            m_pid = 0;
        posix_spawn_file_actions_destroy(&actions);
        ::close(out[1]);
        m_outFd = out[0];
    }

    ~TerminalProcess()
    {
        if (m_pid > 0 && !m_exited) {
            ::kill(m_pid, SIGKILL);
            ::waitpid(m_pid, nullptr, 0);
        }
        if (m_terminalFd >= 0)
            ::close(m_terminalFd);
        if (m_outFd >= 0)
            ::close(m_outFd);
    }

    TerminalProcess(const TerminalProcess&) = delete;
    TerminalProcess& operator=(const TerminalProcess&) = delete;

    bool started() const { return m_pid > 0; }
    pid_t pid() const { return m_pid; }

    // Reads until the terminal has shown `text`; false if the program ended
    // first or `limit` passed.
    bool waitForTerminal(const std::string& text, std::chrono::milliseconds limit)
    {
        const auto until = std::chrono::steady_clock::now() + limit;
        while (m_terminal.find(text) == std::string::npos) {
            if (reap() || std::chrono::steady_clock::now() >= until)
                return m_terminal.find(text) != std::string::npos;
            pump(50);
        }
        return true;
    }

    // Until the program has ended and both its outputs are read; false (and
    // the program killed) if `limit` passed first.
    bool waitForFinished(std::chrono::milliseconds limit)
    {
        const auto until = std::chrono::steady_clock::now() + limit;
        while (!reap()) {
            if (std::chrono::steady_clock::now() >= until)
                return false;
            pump(50);
        }
        while ((m_terminalFd >= 0 || m_outFd >= 0) && std::chrono::steady_clock::now() < until)
            pump(50);
        return true;
    }

    int exitCode() const { return m_exited && WIFEXITED(m_status) ? WEXITSTATUS(m_status) : -1; }
    const std::string& terminal() const { return m_terminal; }
    const std::string& out() const { return m_out; }

private:
    bool reap()
    {
        if (!m_exited && m_pid > 0 && ::waitpid(m_pid, &m_status, WNOHANG) == m_pid)
            m_exited = true;
        return m_exited;
    }

    // Reads what either output has; an output that has ended (EOF, or EIO
    // from a terminal whose last writer has gone) is closed.
    void pump(int timeoutMs)
    {
        pollfd fds[2] = {{m_terminalFd, POLLIN, 0}, {m_outFd, POLLIN, 0}};
        if (::poll(fds, 2, timeoutMs) <= 0)
            return;
        readFrom(fds[0], m_terminalFd, m_terminal);
        readFrom(fds[1], m_outFd, m_out);
    }

    static void readFrom(const pollfd& polled, int& fd, std::string& into)
    {
        if (fd < 0 || !(polled.revents & (POLLIN | POLLHUP | POLLERR)))
            return;
        char buffer[4096];
        const ssize_t n = ::read(fd, buffer, sizeof buffer);
        if (n > 0) {
            into.append(buffer, size_t(n));
            return;
        }
        ::close(fd);
        fd = -1;
    }

    pid_t m_pid = 0;
    int m_terminalFd = -1;
    int m_outFd = -1;
    bool m_exited = false;
    int m_status = 0;
    std::string m_terminal;
    std::string m_out;
};

} // namespace testsupport
