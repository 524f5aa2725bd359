#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string_view>

namespace conclave {

using TimerId = uint64_t;

// real: steady_clock and timer threads, scaled by time_scale; what HTTP
// backends and live studio runs use. virtual: simulated time that jumps to
// the next event whenever the run has no CPU work left.
enum class ClockKind { Real, Virtual };

std::string_view toString(ClockKind kind);
std::optional<ClockKind> clockKindFromString(std::string_view text);

// The time a run lives in, and where its CPU work runs. A run is given its
// clock; every time rule of the engine and of the local backend (latency,
// first token, timeouts, backoff, deadlines, max_wall_ms) reads and schedules
// on it, and all of the run's CPU work is posted through it, so the clock
// knows when the run has nothing left to do but wait.
//
// Callbacks and tasks run on the engine's pool holding none of the clock's
// locks. In the engine's lock order a clock's own lock comes after the run's
// and a backend's (and before only the timer service's and the pool's): it
// may be taken holding those, never the other way round.
class RunClock {
public:
    virtual ~RunClock() = default;

    virtual ClockKind kind() const = 0;
    // Microseconds since the clock began.
    virtual int64_t nowUs() const = 0;
    // Runs `callback` as the run's work once the clock reaches atUs (soon,
    // when it already has). Timers due at one instant fire in schedule order.
    virtual TimerId schedule(int64_t atUs, std::function<void()> callback) = 0;
    // True when the timer was still pending (its callback will not run).
    virtual bool cancel(TimerId id) = 0;
    // Runs `task` as the run's CPU work, soon.
    virtual void post(std::function<void()> task) = 0;
    // The one rule for time_scale: it scales the real clock's delays; a
    // virtual clock ignores it, its times being exactly as simulated.
    double scale(double timeScale) const { return kind() == ClockKind::Virtual ? 1.0 : timeScale; }
    // The clock time `teamMs` team milliseconds from now, under that rule.
    int64_t after(double teamMs, double timeScale) const
    {
        return nowUs() + static_cast<int64_t>(teamMs * scale(timeScale) * 1000.0);
    }
    // How many of the run's tasks may usefully run at once.
    virtual size_t parallelism() const = 0;
    // Called when nothing is left to happen: no work and no timer. Only a
    // virtual clock can tell; a run still going then could never end.
    virtual void setStallHandler(std::function<void()> handler) { (void)handler; }

    // Brackets a piece of the run's work on the calling thread, measuring
    // the thread's CPU time. A piece begun inside another (a run started
    // from another run's task) pauses the outer one, so nothing counts twice.
    class Work {
    public:
        explicit Work(const RunClock& clock);
        ~Work();
        Work(const Work&) = delete;
        Work& operator=(const Work&) = delete;

    private:
        const RunClock* m_outer;
    };

    // Work done for the run on a thread that is not the clock's (the caller
    // that starts or cancels it): while it lasts, time does not jump, and the
    // thread's CPU time counts as the run's.
    class Hold {
    public:
        explicit Hold(RunClock& clock);
        ~Hold();
        Hold(const Hold&) = delete;
        Hold& operator=(const Hold&) = delete;

    private:
        RunClock& m_clock;
        Work m_work;
    };

    // The CPU time spent on the run's work so far, including the piece of
    // work the calling thread is doing for it right now.
    int64_t cpuUs() const;

protected:
    // While any Hold lasts, the clock keeps its time.
    virtual void holdTime() {}
    virtual void releaseTime() {}

private:
    mutable std::atomic<int64_t> m_cpuNs{0};
};

// The calling thread's CPU time in nanoseconds.
int64_t threadCpuNs();

} // namespace conclave
