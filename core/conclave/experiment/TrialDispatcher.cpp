#include "conclave/experiment/TrialDispatcher.h"

#include "conclave/session/RecordedStart.h"

namespace conclave {

// A flight's observer: tells the dispatcher when the flight's run has ended.
struct TrialDispatcher::Watch : RunObserver {
    TrialDispatcher* owner = nullptr;
    std::unique_ptr<TrialFlight> flight;

    void runFinished(const RunResult&) override
    {
        std::lock_guard lock(owner->m_mutex);
        owner->m_done.push_back(flight.get());
        owner->m_ended.notify_all();
    }
};

TrialDispatcher::TrialDispatcher(Engine& engine) : m_engine(engine) {}

TrialDispatcher::~TrialDispatcher()
{
    cancelAll();
    while (inFlight() > 0)
        next();
}

std::string TrialDispatcher::start(std::unique_ptr<TrialFlight>& flight, Launch launch)
{
    auto watch = std::make_unique<Watch>();
    watch->owner = this;
    Watch* raw = watch.get();
    launch.options.observers.push_back(raw);
    TrialFlight* key = flight.get();
    watch->flight = std::move(flight);
    {
        // In the map before the run starts: its end may come at once.
        std::lock_guard lock(m_mutex);
        m_flying.emplace(key, std::move(watch));
    }
    auto started = startRecorded(m_engine, std::move(launch.recorder), *launch.team, std::move(launch.input),
                                 std::move(launch.options));
    bool cancelNow = false;
    {
        std::lock_guard lock(m_mutex);
        if (!started.run) {
            // Nothing started, so nothing will call the watch.
            flight = std::move(m_flying.at(key)->flight);
            m_flying.erase(key);
            return started.error;
        }
        if (started.recorder)
            (key->judging ? key->judgeRecorder : key->recorder) = std::move(started.recorder);
        key->run = started.run;
        cancelNow = m_cancel;
    }
    // Not under the lock: a cancelled run may end at once, calling the watch.
    if (cancelNow)
        started.run->cancel();
    return {};
}

TrialDispatcher::Ended TrialDispatcher::next()
{
    std::unique_lock lock(m_mutex);
    if (m_flying.empty())
        return {};
    m_ended.wait(lock, [&] { return !m_done.empty(); });
    TrialFlight* key = m_done.front();
    m_done.pop_front();
    auto watch = std::move(m_flying.at(key));
    m_flying.erase(key);
    lock.unlock();
    // The run has told its observers it ended; wait() returns once it has let go of them.
    Ended out;
    out.result = key->run->wait();
    out.flight = std::move(watch->flight);
    return out;
}

size_t TrialDispatcher::inFlight() const
{
    std::lock_guard lock(m_mutex);
    return m_flying.size();
}

void TrialDispatcher::cancelAll()
{
    std::vector<std::shared_ptr<Run>> going;
    {
        std::lock_guard lock(m_mutex);
        m_cancel = true;
        for (const auto& [flight, watch] : m_flying) {
            if (flight->run)
                going.push_back(flight->run);
        }
    }
    for (const auto& run : going)
        run->cancel();
}

bool TrialDispatcher::cancelling() const
{
    std::lock_guard lock(m_mutex);
    return m_cancel;
}

} // namespace conclave
