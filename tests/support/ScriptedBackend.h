#pragma once
// A backend for engine tests whose calls do what the test says, when it says:
// it records every start and cancel, can hold a start() on the caller's thread
// until the test lets it go (the late launch of an attempt), and answers a
// call only when the test replies to it or cancels it. Callbacks run on a
// thread of its own, never on the caller's stack, as ModelBackend promises.

#include "conclave/engine/ModelBackend.h"
#include "conclave/engine/RealClock.h"
#include "conclave/engine/Run.h"
#include "conclave/engine/RunPlan.h"
#include "conclave/io/TeamJson.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

namespace enginetest {

class ScriptedBackend : public conclave::ModelBackend {
public:
    ScriptedBackend() : m_thread([this] { deliverLoop(); }) {}
    ~ScriptedBackend() override
    {
        {
            std::lock_guard lock(m_mutex);
            m_stopping = true;
            m_holdAttempt = 0;
        }
        m_changed.notify_all();
        m_thread.join();
    }

    // start() of the call with this attempt number waits until release() (or 10 s).
    void holdAttempt(int attempt)
    {
        std::lock_guard lock(m_mutex);
        m_holdAttempt = attempt;
    }
    void release()
    {
        std::lock_guard lock(m_mutex);
        m_holdAttempt = 0;
        m_changed.notify_all();
    }

    conclave::CallId start(conclave::ModelRequest request, conclave::CallCallbacks callbacks) override
    {
        std::unique_lock lock(m_mutex);
        const conclave::CallId id = m_next++;
        m_calls[id] = std::move(callbacks);
        m_started.push_back({id, request.attempt});
        m_requests.push_back(request);
        m_changed.notify_all();
        if (request.attempt == m_holdAttempt)
            m_changed.wait_for(lock, std::chrono::seconds(10), [&] { return m_holdAttempt != request.attempt; });
        return id;
    }

    void cancel(conclave::CallId id) override
    {
        std::lock_guard lock(m_mutex);
        m_cancelled.push_back(id);
        m_changed.notify_all();
        const auto it = m_calls.find(id);
        if (it == m_calls.end())
            return;
        conclave::ModelReply reply;
        reply.cancelled = true;
        reply.error = "cancelled";
        m_outbox.push_back([done = std::move(it->second.onDone), reply]() mutable { done(std::move(reply)); });
        m_calls.erase(it);
    }

    // Answers call `id` with `text`, later, on the backend's thread.
    void reply(conclave::CallId id, std::string text)
    {
        std::lock_guard lock(m_mutex);
        const auto it = m_calls.find(id);
        if (it == m_calls.end())
            return;
        conclave::ModelReply reply;
        reply.ok = true;
        reply.text = std::move(text);
        m_outbox.push_back([done = std::move(it->second.onDone), reply]() mutable { done(std::move(reply)); });
        m_calls.erase(it);
        m_changed.notify_all();
    }

    double costOf(std::string_view, int64_t, int64_t) const override { return 0; }

    // (call id, attempt) of every start, in order.
    std::vector<std::pair<conclave::CallId, int>> started() const
    {
        std::lock_guard lock(m_mutex);
        return m_started;
    }
    // The request of every start, in the order of started().
    std::vector<conclave::ModelRequest> requests() const
    {
        std::lock_guard lock(m_mutex);
        return m_requests;
    }
    std::vector<conclave::CallId> cancelled() const
    {
        std::lock_guard lock(m_mutex);
        return m_cancelled;
    }
    // Waits (at most `limit`) until `ready` holds, checked under the backend's lock.
    bool waitUntil(const std::function<bool()>& ready, std::chrono::milliseconds limit)
    {
        std::unique_lock lock(m_mutex);
        return m_changed.wait_for(lock, limit, ready);
    }
    size_t startedCount() const { return m_started.size(); }     // for waitUntil's predicate only
    size_t cancelledCount() const { return m_cancelled.size(); } // for waitUntil's predicate only

private:
    void deliverLoop()
    {
        std::unique_lock lock(m_mutex);
        for (;;) {
            m_changed.wait(lock, [&] { return m_stopping || !m_outbox.empty(); });
            if (m_outbox.empty())
                return;
            auto next = std::move(m_outbox.front());
            m_outbox.pop_front();
            lock.unlock();
            next();
            lock.lock();
        }
    }

    mutable std::mutex m_mutex;
    std::condition_variable m_changed;
    std::map<conclave::CallId, conclave::CallCallbacks> m_calls;
    std::vector<std::pair<conclave::CallId, int>> m_started;
    std::vector<conclave::ModelRequest> m_requests;
    std::vector<conclave::CallId> m_cancelled;
    std::deque<std::function<void()>> m_outbox;
    conclave::CallId m_next = 1;
    int m_holdAttempt = 0;
    bool m_stopping = false;
    std::thread m_thread;
};

// in -> e -> out, e calling model "m" on backend "scripted" with this timeout and these retries.
inline std::shared_ptr<const conclave::RunPlan> scriptedOneExpertPlan(int64_t timeoutMs, int retries)
{
    using nlohmann::json;
    json doc{{"conclave", 1}, {"name", "scripted"}};
    doc["backends"]["scripted"] = json{{"kind", "local-moe"}, {"time_scale", 1}};
    doc["defaults"] = json{{"backend", "scripted"}, {"timeout_ms", timeoutMs}, {"retries", retries}};
    doc["nodes"] =
        json::array({json{{"id", "in"}, {"kind", "input"}}, json{{"id", "e"}, {"kind", "expert"}, {"model", "m"}},
                     json{{"id", "out"}, {"kind", "output"}}});
    doc["edges"] = json::array({json{{"from", "in"}, {"to", "e"}}, json{{"from", "e"}, {"to", "out"}}});
    auto loaded = conclave::teamFromJson(doc);
    if (!loaded.team)
        return nullptr;
    std::string error;
    return conclave::RunPlan::make(*loaded.team, error);
}

// A run of `plan` with every call going to `backend` (named "scripted"), input "hello".
inline std::shared_ptr<conclave::Run> scriptedRun(std::shared_ptr<const conclave::RunPlan> plan,
                                                  std::shared_ptr<ScriptedBackend> backend,
                                                  std::shared_ptr<conclave::RunClock> clock,
                                                  std::vector<conclave::RunObserver*> observers = {})
{
    conclave::RunOptions options;
    options.input = "hello";
    options.observers = std::move(observers);
    return std::make_shared<conclave::Run>(std::move(plan), options,
                                           std::map<conclave::BackendName, std::shared_ptr<conclave::ModelBackend>>{
                                               {conclave::BackendName("scripted"), std::move(backend)}},
                                           conclave::GateScorer{}, std::move(clock));
}

} // namespace enginetest
