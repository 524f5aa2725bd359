#include "conclave/engine/RunClock.h"

#include <ctime>

namespace conclave {

namespace {
// The piece of a run's work the current thread is doing, if any.
struct WorkInProgress {
    const RunClock* clock = nullptr;
    int64_t sinceNs = 0;
};
thread_local WorkInProgress t_work;
} // namespace

std::string_view toString(ClockKind kind)
{
    return kind == ClockKind::Virtual ? "virtual" : "real";
}

std::optional<ClockKind> clockKindFromString(std::string_view text)
{
    if (text == "real")
        return ClockKind::Real;
    if (text == "virtual")
        return ClockKind::Virtual;
    return std::nullopt;
}

int64_t threadCpuNs()
{
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return int64_t(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

RunClock::Work::Work(const RunClock& clock) : m_outer(t_work.clock)
{
    const int64_t now = threadCpuNs();
    if (m_outer)
        m_outer->m_cpuNs += now - t_work.sinceNs;
    t_work = {&clock, now};
}

RunClock::Work::~Work()
{
    const int64_t now = threadCpuNs();
    t_work.clock->m_cpuNs += now - t_work.sinceNs;
    t_work = {m_outer, now};
}

RunClock::Hold::Hold(RunClock& clock) : m_clock(clock), m_work(clock)
{
    m_clock.holdTime();
}

RunClock::Hold::~Hold()
{
    m_clock.releaseTime();
}

int64_t RunClock::cpuUs() const
{
    int64_t ns = m_cpuNs;
    if (t_work.clock == this)
        ns += threadCpuNs() - t_work.sinceNs;
    return ns / 1000;
}

} // namespace conclave
