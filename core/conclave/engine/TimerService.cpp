#include "conclave/engine/TimerService.h"

#include "conclave/util/ThreadName.h"

#include <vector>

namespace conclave {

TimerService::TimerService(ThreadPool& pool) : m_pool(pool), m_thread([this] {
    nameThisThread("conclave-timer");
    run();
}) {}

TimerService::~TimerService()
{
    {
        std::lock_guard lock(m_mutex);
        m_stopping = true;
    }
    m_wake.notify_all();
    m_thread.join();
}

TimerId TimerService::schedule(Clock::time_point at, std::function<void()> callback)
{
    TimerId id = 0;
    bool wake = false;
    {
        std::lock_guard lock(m_mutex);
        id = m_next++;
        if (at <= Clock::now()) {
            m_pool.post(std::move(callback));
            return id;
        }
        wake = m_queue.empty() || at < m_queue.begin()->first.first;
        m_queue.emplace(std::make_pair(at, id), std::move(callback));
        m_deadlines.emplace(id, at);
    }
    if (wake)
        m_wake.notify_one();
    return id;
}

bool TimerService::cancel(TimerId id)
{
    std::lock_guard lock(m_mutex);
    const auto it = m_deadlines.find(id);
    if (it == m_deadlines.end())
        return false;
    m_queue.erase({it->second, id});
    m_deadlines.erase(it);
    return true;
}

size_t TimerService::pending() const
{
    std::lock_guard lock(m_mutex);
    return m_queue.size();
}

void TimerService::run()
{
    std::unique_lock lock(m_mutex);
    std::vector<std::function<void()>> due;
    while (!m_stopping) {
        if (m_queue.empty()) {
            m_wake.wait(lock);
            continue;
        }
        const auto next = m_queue.begin()->first.first;
        if (Clock::now() < next) {
            m_wake.wait_until(lock, next);
            continue;
        }
        const auto now = Clock::now();
        while (!m_queue.empty() && m_queue.begin()->first.first <= now) {
            auto node = m_queue.extract(m_queue.begin());
            m_deadlines.erase(node.key().second);
            due.push_back(std::move(node.mapped()));
        }
        lock.unlock();
        for (auto& callback : due)
            m_pool.post(std::move(callback));
        due.clear();
        lock.lock();
    }
}

} // namespace conclave
