#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

namespace conclave::cli {

// The OpenAI-compatible test server of `conclave bench eval`: on 127.0.0.1 at
// a free port, each chat completion holds one of `slots` slots for `replyMs`
// and answers "Answer: 4". It counts the requests it has in hand at once, so
// a bench can show that a client's max_concurrency held. HTTP/1.1 with
// keep-alive, one thread per connection; non-streaming replies only.
class BenchServer {
public:
    BenchServer(int slots, int replyMs);
    ~BenchServer();
    BenchServer(const BenchServer&) = delete;
    BenchServer& operator=(const BenchServer&) = delete;

    int port() const { return m_port; } // 0 when it could not listen
    int64_t requests() const { return m_requests.load(); }
    int maxInFlight() const { return m_maxInFlight.load(); }

private:
    void acceptLoop();
    void serve(int fd);
    void answer(int fd, bool keepAlive);

    int m_slots;
    int m_replyMs;
    int m_listen = -1;
    int m_port = 0;
    std::atomic<bool> m_stop{false};
    std::atomic<int64_t> m_requests{0};
    std::atomic<int> m_inFlight{0};
    std::atomic<int> m_maxInFlight{0};
    std::mutex m_mutex;
    std::condition_variable m_slotFree;
    int m_busy = 0;
    std::vector<int> m_connections;
    std::vector<std::thread> m_threads;
    std::thread m_acceptor;
};

} // namespace conclave::cli
