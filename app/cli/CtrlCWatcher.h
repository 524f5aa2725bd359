#pragma once

#include <atomic>
#include <functional>
#include <thread>

namespace conclave::cli {

// While it lives, the first Ctrl+C calls `onInterrupt` (on a thread of its own, within 20 ms) and a second
// ends the process at once: what a long command (eval, search) does to stop cleanly. One at a time.
class CtrlCWatcher {
public:
    explicit CtrlCWatcher(std::function<void()> onInterrupt);
    ~CtrlCWatcher();
    CtrlCWatcher(const CtrlCWatcher&) = delete;
    CtrlCWatcher& operator=(const CtrlCWatcher&) = delete;

private:
    std::atomic<bool> m_done{false};
    std::thread m_thread;
};

} // namespace conclave::cli
