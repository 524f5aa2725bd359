#pragma once

#include "conclave/engine/RunObserver.h"
#include "conclave/session/Engine.h"
#include "conclave/store/ExperimentRecords.h"
#include "conclave/store/RunRecorder.h"

#include <condition_variable>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <string>

namespace conclave {

// A trial in flight: its design run, then (when a judge scores it) the judge's.
struct TrialFlight {
    size_t trial = 0; // index into the agenda's planned trials
    bool judging = false;
    TrialRecord record;
    std::unique_ptr<RunRecorder> recorder;      // the design run's, when runs are stored
    std::unique_ptr<RunRecorder> judgeRecorder; // the judge run's, when runs are stored
    std::shared_ptr<Run> run;              // the run going, or the one that just ended
};

// Starts trials' runs and hands each back when it has ended, in the order
// they end. It owns every flight — its record, its recorder and the observer
// its run calls — from start until next() hands it back after the run has
// ended, so nothing a run still calls can go first: destroying the
// dispatcher cancels the runs in flight and waits for every one of them.
// start() and next() are for one thread; cancelAll() and cancelling() for any.
class TrialDispatcher {
public:
    explicit TrialDispatcher(Engine& engine);
    ~TrialDispatcher();
    TrialDispatcher(const TrialDispatcher&) = delete;
    TrialDispatcher& operator=(const TrialDispatcher&) = delete;

    // Starts `flight`'s run of `team` on `input`; a design run is stored by
    // `recorder` (null: not stored), which the flight keeps. An error (and
    // the flight back, unstarted) when it cannot start.
    struct Launch {
        const PreparedTeam* team = nullptr;
        std::string input;
        Engine::StartOptions options;
        std::unique_ptr<RunRecorder> recorder;
    };
    std::string start(std::unique_ptr<TrialFlight>& flight, Launch launch);
    // Blocks until a run in flight has ended; its flight, and the run's result.
    // Null when nothing is in flight.
    struct Ended {
        std::unique_ptr<TrialFlight> flight;
        RunResult result;
    };
    Ended next();
    size_t inFlight() const;
    // Cancels every run in flight and every one started from now on.
    void cancelAll();
    bool cancelling() const;

private:
    struct Watch;

    Engine& m_engine;
    mutable std::mutex m_mutex;
    std::condition_variable m_ended;
    std::map<TrialFlight*, std::unique_ptr<Watch>> m_flying;
    std::deque<TrialFlight*> m_done; // ended, not yet handed back
    bool m_cancel = false;
};

} // namespace conclave
