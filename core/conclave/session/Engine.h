#pragma once

#include "conclave/engine/Run.h"
#include "conclave/engine/ThreadPool.h"
#include "conclave/engine/TimerService.h"
#include "conclave/http/HttpHub.h"
#include "conclave/io/ModelsFile.h"
#include "conclave/model/Team.h"
#include "conclave/replay/RecordingLibrary.h"
#include "conclave/session/ClockChoice.h"
#include "conclave/session/EngineResources.h"
#include "conclave/session/PreparedTeam.h"

#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace conclave {

// Runs teams. Owns the thread pool and the timer service shared by all its
// runs, and the HTTP hub (one multi loop, per-endpoint limits) its openai
// backends share; a run's clock and backends are made fresh for it, the
// backends from the team's backend blocks. Runs on virtual clocks share the
// pool with everything else, each in its own simulated time.
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

    struct StartOptions {
        std::optional<uint64_t> seed; // replaces the local backends' own
        std::vector<RunObserver*> observers;
        ClockRequest clock = ClockRequest::Real;
        std::optional<double> cancelAfterMs; // a scripted Stop (RunOptions::cancelAfterMs)
        // The tasks the local backends recognise, instead of the resources' own
        // (an experiment's task set merged over the bundled ones).
        std::shared_ptr<const TaskSet> tasks;
        // The case a judge run grades (RunOptions::judge); the input is its prompt.
        std::optional<JudgeCase> judge = std::nullopt;
    };
    struct Prepared {
        std::shared_ptr<const PreparedTeam> team;
        std::string error; // why the team cannot run, when team is null
    };
    // Validates the team and snapshots it, once for any number of runs. A
    // relative models_file or scorer is found in `teamFolder` (the team file's
    // folder); empty, in the current directory. Coordinators' scorers are
    // loaded here (TeamScorers): a bad one fails the preparation.
    Prepared prepare(const Team& team, const std::filesystem::path& teamFolder = {}) const;
    // Starts a run of a prepared team on the clock asked for.
    Started start(const PreparedTeam& team, std::string input, StartOptions options);
    // prepare() and start() in one.
    Started start(const Team& team, std::string input, StartOptions options);
    // The same on the real clock.
    Started start(const Team& team, std::string input, std::optional<uint64_t> seed = std::nullopt,
                  std::vector<RunObserver*> observers = {});

    // Single-run mode: prepare() with every backend replaying the stored run
    // `runId` (an id or a unique prefix) of the store at `db` (empty: the
    // store set by setStore), its calls matched by node, round, subtask and
    // attempt (RunRecordings). Its runs may use the virtual clock. With
    // `retime`, each replayed call's recorded times change as it says (the
    // what-if, docs/whatif.md). A call the run did not make, or cut short,
    // is answered by the simulator: each backend's own profiles (the catalog
    // with a local-moe block's overrides) overlaid with `simulatorModels`.
    Prepared prepareReplay(const Team& team, const std::string& runId, const std::filesystem::path& db = {},
                           const std::filesystem::path& teamFolder = {}, CallRetiming retime = {},
                           const ModelsFile::Profiles& simulatorModels = {}) const;
    // The same replaying `source` (one run's calls, RunRecordings): a team prepared once replays
    // each of an experiment's trials with its own source swapped in (PreparedTeam::replayAll).
    Prepared prepareReplay(const Team& team, std::shared_ptr<const RecordingSource> source,
                           const std::filesystem::path& teamFolder = {}, CallRetiming retime = {},
                           const ModelsFile::Profiles& simulatorModels = {}) const;

    // The command's store: where a recorded backend without `db` reads. Set
    // before prepare(); unset, such a backend cannot be prepared.
    void setStore(std::filesystem::path db) { m_store = std::move(db); }
    const std::filesystem::path& store() const { return m_store; }

    const EngineResources& resources() const { return m_resources; }
    size_t threads() const { return m_pool.size(); }

private:
    EngineResources m_resources;
    std::filesystem::path m_store;
    mutable RecordingLibrary m_recordings; // thread-safe; shared by every prepare()
    ThreadPool m_pool;
    TimerService m_timers;
    std::mutex m_mutex;
    std::vector<std::weak_ptr<Run>> m_runs;
    HttpHub m_http; // last: goes first, after the runs have ended, while the pool and timers are still there
};

} // namespace conclave
