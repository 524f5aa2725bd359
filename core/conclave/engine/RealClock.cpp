#include "conclave/engine/RealClock.h"

namespace conclave {

RealClock::RealClock(ThreadPool& pool, TimerService& timers) : m_pool(pool), m_timers(timers), m_epoch(Clock::now()) {}

int64_t RealClock::nowUs() const
{
    return std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - m_epoch).count();
}

std::function<void()> RealClock::measured(std::function<void()> task)
{
    // The clock lives as long as its run, and a task may outlive both.
    return [self = shared_from_this(), task = std::move(task)] {
        Work work(*self);
        task();
    };
}

TimerId RealClock::schedule(int64_t atUs, std::function<void()> callback)
{
    return m_timers.schedule(m_epoch + std::chrono::microseconds(atUs), measured(std::move(callback)));
}

bool RealClock::cancel(TimerId id)
{
    return m_timers.cancel(id);
}

void RealClock::post(std::function<void()> task)
{
    m_pool.post(measured(std::move(task)));
}

} // namespace conclave
