#include "conclave/engine/VirtualClock.h"

#include <utility>

namespace conclave {

namespace {
// Tasks per turn on the pool: a long simulation lets other runs' work in
// between, and a runner does not cost a pool round trip per task.
constexpr int kSlice = 256;
} // namespace

VirtualClock::VirtualClock(ThreadPool& pool) : m_pool(pool) {}

VirtualClock::~VirtualClock() = default;

TimerId VirtualClock::schedule(int64_t atUs, std::function<void()> callback)
{
    std::lock_guard lock(m_mutex);
    const TimerId id = m_next++;
    if (atUs <= m_nowUs.load(std::memory_order_relaxed)) {
        m_work.push_back(std::move(callback));
        wakeLocked();
        return id;
    }
    m_timers.emplace(std::make_pair(atUs, id), std::move(callback));
    m_due.emplace(id, atUs);
    // On an idle clock the new timer is the next thing to happen.
    if (m_holds == 0)
        wakeLocked();
    return id;
}

bool VirtualClock::cancel(TimerId id)
{
    std::function<void()> dropped; // destroyed after the lock is released: it may own a run
    std::lock_guard lock(m_mutex);
    const auto it = m_due.find(id);
    if (it == m_due.end())
        return false;
    auto node = m_timers.extract({it->second, id});
    m_due.erase(it);
    dropped = std::move(node.mapped());
    return true;
}

void VirtualClock::post(std::function<void()> task)
{
    std::lock_guard lock(m_mutex);
    m_work.push_back(std::move(task));
    wakeLocked();
}

void VirtualClock::setStallHandler(std::function<void()> handler)
{
    std::function<void()> old;
    std::lock_guard lock(m_mutex);
    old = std::exchange(m_onStall, std::move(handler));
}

size_t VirtualClock::pendingTimers() const
{
    std::lock_guard lock(m_mutex);
    return m_timers.size();
}

void VirtualClock::holdTime()
{
    std::lock_guard lock(m_mutex);
    ++m_holds;
}

void VirtualClock::releaseTime()
{
    std::lock_guard lock(m_mutex);
    // The last hold gone with nothing running: time may move again.
    if (--m_holds == 0)
        wakeLocked();
}

void VirtualClock::wakeLocked()
{
    if (m_running)
        return;
    m_running = true;
    m_pool.post([self = shared_from_this()] { self->runSlice(); });
}

bool VirtualClock::advanceLocked()
{
    if (m_timers.empty())
        return false;
    const int64_t at = m_timers.begin()->first.first;
    m_nowUs.store(at, std::memory_order_release);
    while (!m_timers.empty() && m_timers.begin()->first.first == at) {
        auto node = m_timers.extract(m_timers.begin());
        m_due.erase(node.key().second);
        m_work.push_back(std::move(node.mapped()));
    }
    return true;
}

void VirtualClock::runSlice()
{
    Work measured(*this);
    for (int done = 0;; ++done) {
        std::function<void()> task;
        std::function<void()> stalled;
        {
            std::lock_guard lock(m_mutex);
            if (m_work.empty() && (m_holds > 0 || !advanceLocked())) {
                // Held: the holder's release wakes the clock. Otherwise nothing
                // is left to happen, ever.
                m_running = false;
                if (m_holds == 0)
                    stalled = m_onStall;
            } else if (done == kSlice) {
                m_pool.post([self = shared_from_this()] { self->runSlice(); }); // still running
                return;
            } else {
                task = std::move(m_work.front());
                m_work.pop_front();
            }
        }
        if (!task) {
            if (stalled)
                stalled();
            return;
        }
        task();
    }
}

} // namespace conclave
