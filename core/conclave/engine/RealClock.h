#pragma once

#include "conclave/engine/RunClock.h"
#include "conclave/engine/ThreadPool.h"
#include "conclave/engine/TimerService.h"

#include <memory>

namespace conclave {

// The real clock: steady_clock from the moment it is made, the engine's
// timer thread for what is scheduled and its pool for the work. Any number
// of runs' real clocks share one timer service and one pool.
class RealClock final : public RunClock, public std::enable_shared_from_this<RealClock> {
public:
    RealClock(ThreadPool& pool, TimerService& timers);

    ClockKind kind() const override { return ClockKind::Real; }
    int64_t nowUs() const override;
    TimerId schedule(int64_t atUs, std::function<void()> callback) override;
    bool cancel(TimerId id) override;
    void post(std::function<void()> task) override;
    size_t parallelism() const override { return m_pool.size(); }

private:
    // The task, run as this clock's work (its CPU time counted).
    std::function<void()> measured(std::function<void()> task);

    ThreadPool& m_pool;
    TimerService& m_timers;
    Clock::time_point m_epoch;
};

} // namespace conclave
