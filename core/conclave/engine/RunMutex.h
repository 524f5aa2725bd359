#pragma once

#include <atomic>
#include <cassert>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace conclave {

// The run's one mutex, which knows which thread holds it, so that code that
// expects the lock held can say so (assertHeld) and a debug build checks it.
// Costs one relaxed atomic store per lock and unlock.
class RunMutex {
public:
    void lock()
    {
        m_mutex.lock();
        m_owner.store(std::this_thread::get_id(), std::memory_order_relaxed);
    }
    void unlock()
    {
        m_owner.store(std::thread::id(), std::memory_order_relaxed);
        m_mutex.unlock();
    }
    bool try_lock()
    {
        if (!m_mutex.try_lock())
            return false;
        m_owner.store(std::this_thread::get_id(), std::memory_order_relaxed);
        return true;
    }
    // Only the holder can see its own id here, so the answer is exact for the calling thread.
    bool heldByThisThread() const { return m_owner.load(std::memory_order_relaxed) == std::this_thread::get_id(); }
    void assertHeld() const { assert(heldByThisThread() && "the run's lock must be held"); }

private:
    std::mutex m_mutex;
    std::atomic<std::thread::id> m_owner{};
};

using RunLock = std::unique_lock<RunMutex>;

} // namespace conclave
