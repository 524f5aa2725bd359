#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace conclave {

// A fixed number of worker threads running posted tasks in FIFO order. The
// engine's CPU work (prompt building, gating, aggregation, bookkeeping) runs
// here; nothing posted may block waiting for a model.
class ThreadPool {
public:
    // `name` names the workers (see nameThisThread).
    explicit ThreadPool(size_t threads, std::string name = "conclave-pool");
    ~ThreadPool();

    ThreadPool(const ThreadPool&) = delete;
    ThreadPool& operator=(const ThreadPool&) = delete;

    void post(std::function<void()> task);
    size_t size() const { return m_workers.size(); }

    // The default size: the hardware's threads, at least 2.
    static size_t defaultSize();

private:
    void work();

    std::mutex m_mutex;
    std::condition_variable m_wake;
    std::deque<std::function<void()>> m_tasks;
    bool m_stopping = false;
    size_t m_idle = 0;  // workers waiting; a post wakes one only if there is one
    std::vector<std::thread> m_workers;
};

} // namespace conclave
