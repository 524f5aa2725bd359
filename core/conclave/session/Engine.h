#pragma once

#include "conclave/engine/Run.h"
#include "conclave/engine/ThreadPool.h"
#include "conclave/engine/TimerService.h"
#include "conclave/http/HttpHub.h"
#include "conclave/model/Team.h"
#include "conclave/session/EngineResources.h"

#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace conclave {

// Runs teams. Owns the thread pool and the timer service shared by all its
// runs, and the HTTP hub (one multi loop, per-endpoint limits) its openai
// backends share; a run's backends are made fresh for it from the team's
// backend blocks.
// Destroying the engine cancels the runs still going and waits for them.
class Engine {
public:
    explicit Engine(EngineResources resources, size_t threads = ThreadPool::defaultSize());
    ~Engine();

    Engine(const Engine&) = delete;
    Engine& operator=(const Engine&) = delete;

    struct Started {
        std::shared_ptr<Run> run;
        std::string error; // why the team cannot run, when run is null
    };

    // Validates the team, snapshots it and starts it. The seed, when given,
    // replaces the local backends' own.
    Started start(const Team& team, std::string input, std::optional<uint64_t> seed = std::nullopt,
                  std::vector<RunObserver*> observers = {});

    const EngineResources& resources() const { return m_resources; }
    size_t threads() const { return m_pool.size(); }

private:
    EngineResources m_resources;
    ThreadPool m_pool;
    TimerService m_timers;
    std::mutex m_mutex;
    std::vector<std::weak_ptr<Run>> m_runs;
    HttpHub m_http; // last: goes first, after the runs have ended, while the pool and timers are still there
};

} // namespace conclave
