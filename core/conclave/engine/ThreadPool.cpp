#include "conclave/engine/ThreadPool.h"

#include "conclave/util/ThreadName.h"

#include <algorithm>

namespace conclave {

namespace {
// The pool the current thread works for, if any.
thread_local const ThreadPool* t_workerOf = nullptr;
} // namespace

ThreadPool::ThreadPool(size_t threads, std::string name)
{
    threads = std::max<size_t>(threads, 1);
    m_workers.reserve(threads);
    for (size_t i = 0; i < threads; ++i)
        m_workers.emplace_back([this, name] {
            nameThisThread(name);
            work();
        });
}

ThreadPool::~ThreadPool()
{
    {
        std::lock_guard lock(m_mutex);
        m_stopping = true;
    }
    m_wake.notify_all();
    for (auto& worker : m_workers)
        worker.join();
}

size_t ThreadPool::defaultSize()
{
    return std::max<size_t>(2, std::thread::hardware_concurrency());
}

void ThreadPool::post(std::function<void()> task)
{
    bool wake = false;
    {
        std::lock_guard lock(m_mutex);
        m_tasks.push_back(std::move(task));
        // A worker that queues the only task runs it itself as soon as it is
        // done: handing a chain of small tasks to a sleeping thread costs more.
        wake = m_idle > 0 && !(t_workerOf == this && m_tasks.size() == 1);
    }
    // Busy workers find the task themselves; waking costs a system call.
    if (wake)
        m_wake.notify_one();
}

void ThreadPool::work()
{
    t_workerOf = this;
    for (;;) {
        std::function<void()> task;
        {
            std::unique_lock lock(m_mutex);
            while (!m_stopping && m_tasks.empty()) {
                ++m_idle;
                m_wake.wait(lock);
                --m_idle;
            }
            // Drain what is queued before stopping, so no completion is lost.
            if (m_tasks.empty())
                return;
            task = std::move(m_tasks.front());
            m_tasks.pop_front();
        }
        task();
    }
}

} // namespace conclave
