#include "CtrlCWatcher.h"

#include <chrono>
#include <csignal>

namespace conclave::cli {

namespace {

std::atomic<bool> g_interrupted{false};

void onSigint(int)
{
    g_interrupted.store(true);
    std::signal(SIGINT, SIG_DFL); // a second Ctrl+C ends the process at once
}

} // namespace

CtrlCWatcher::CtrlCWatcher(std::function<void()> onInterrupt)
{
    g_interrupted.store(false);
    std::signal(SIGINT, onSigint);
    m_thread = std::thread([this, onInterrupt = std::move(onInterrupt)] {
        while (!m_done.load()) {
            if (g_interrupted.exchange(false))
                onInterrupt();
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
    });
}

CtrlCWatcher::~CtrlCWatcher()
{
    m_done.store(true);
    m_thread.join();
    std::signal(SIGINT, SIG_DFL);
}

} // namespace conclave::cli
