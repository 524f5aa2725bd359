#pragma once

#include "conclave/engine/ThreadPool.h"

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <thread>
#include <unordered_map>

namespace conclave {

using Clock = std::chrono::steady_clock;
using TimerId = uint64_t;

// One thread that waits for deadlines and hands each expired callback to the
// thread pool. The local backend completes its calls through it, so simulated
// latency costs a heap entry, never a sleeping worker. Timers with the same
// deadline fire in the order they were scheduled.
class TimerService {
public:
    explicit TimerService(ThreadPool& pool);
    ~TimerService();

    TimerService(const TimerService&) = delete;
    TimerService& operator=(const TimerService&) = delete;

    // A deadline already past goes straight to the pool.
    TimerId schedule(Clock::time_point at, std::function<void()> callback);
    // True when the timer was still pending (its callback will not run).
    bool cancel(TimerId id);

    size_t pending() const;

private:
    void run();

    ThreadPool& m_pool;
    mutable std::mutex m_mutex;
    std::condition_variable m_wake;
    std::map<std::pair<Clock::time_point, TimerId>, std::function<void()>> m_queue;
    std::unordered_map<TimerId, Clock::time_point> m_deadlines;
    TimerId m_next = 1;
    bool m_stopping = false;
    std::thread m_thread;
};

} // namespace conclave
