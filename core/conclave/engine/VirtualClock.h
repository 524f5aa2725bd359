#pragma once

#include "conclave/engine/RunClock.h"
#include "conclave/engine/ThreadPool.h"

#include <atomic>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <unordered_map>

namespace conclave {

// A run's simulated time: a discrete-event simulation on the engine's pool.
//
// The run's work runs one task at a time, in the order it was posted (a
// strand), so a run's events happen in one order on any machine and under
// any load. Time moves only when the run has no work left: no task queued or
// running and no Hold. It then jumps to the earliest timer, queues every
// timer due at that instant in schedule order, and goes on. Work takes no
// simulated time; the real CPU time it used is counted (RunClock::cpuUs).
// Nothing sleeps and no timer thread is involved, so runs on virtual clocks
// cost only their CPU work, and any number of them share one pool, each in
// its own time.
//
// When the run has no work and no timer left, the clock calls its stall
// handler, if one is set: a run still going then can never end, and says so.
class VirtualClock final : public RunClock, public std::enable_shared_from_this<VirtualClock> {
public:
    explicit VirtualClock(ThreadPool& pool);
    ~VirtualClock() override;

    ClockKind kind() const override { return ClockKind::Virtual; }
    int64_t nowUs() const override { return m_nowUs.load(std::memory_order_acquire); }
    TimerId schedule(int64_t atUs, std::function<void()> callback) override;
    bool cancel(TimerId id) override;
    void post(std::function<void()> task) override;
    size_t parallelism() const override { return 1; }

    void setStallHandler(std::function<void()> handler) override;
    size_t pendingTimers() const;

protected:
    void holdTime() override;
    void releaseTime() override;

private:
    // Keeps one runner task on the pool while there is work; lock held.
    void wakeLocked();
    void runSlice();
    // Moves time to the earliest timer and queues what is due then; false when there is none. Lock held.
    bool advanceLocked();

    ThreadPool& m_pool;
    std::atomic<int64_t> m_nowUs{0};
    mutable std::mutex m_mutex; // guards everything below
    std::deque<std::function<void()>> m_work;
    std::map<std::pair<int64_t, TimerId>, std::function<void()>> m_timers;
    std::unordered_map<TimerId, int64_t> m_due;
    TimerId m_next = 1;
    bool m_running = false; // a runner is on the pool (posted or running)
    int m_holds = 0;
    std::function<void()> m_onStall;
};

} // namespace conclave
