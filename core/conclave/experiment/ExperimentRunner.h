#pragma once

#include "conclave/engine/RunClock.h"
#include "conclave/experiment/ExperimentSpec.h"
#include "conclave/experiment/TrialPlan.h"
#include "conclave/store/ExperimentRecords.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace conclave {

class Engine;
class TrialSink;

// Runs an experiment's trials through one engine into one sink: in a store
// (StoredTrials), every trial is a normal stored run tagged with the
// experiment and a trial row with its score; in memory (TrialSummaries), its
// row alone. At most `concurrency` runs are in flight (design and judge runs
// together); endpoints keep their shared limits. Trials already kept are
// skipped, so running a spec again resumes it. Stopping (stop(), a cost
// limit) dispatches nothing new, cancels what is in flight when asked to and
// keeps every finished trial. run() blocks, and returns only when every run
// it started has ended, on every path; everything else is thread-safe.
//
// It is three parts: TrialPlanner says what is left to run, TrialDispatcher
// runs it and owns what runs call, TrialScorer scores what ended.
class ExperimentRunner {
public:
    struct Options {
        int concurrency = 32;
        // Stop dispatching once the experiment has spent this much (design and
        // judge calls, every resume and cancelled run included).
        std::optional<double> maxCostUsd;
        std::optional<Shard> shard;
        // Refuse designs that run on the real clock: a sink that keeps no
        // runs (eval --store summaries) relies on rebuilding them on the
        // simulated clock, which only reproduces a simulated run.
        bool virtualClockOnly = false;
    };

    struct Progress {
        int64_t done = 0;  // trials stored, of `total` (including ones stored before a resume)
        int64_t total = 0; // of this run (the shard's when sharded)
        int64_t failed = 0;
        std::vector<int64_t> correct; // per design
        std::vector<int64_t> scored;  // per design
        double costUsd = 0;           // design and judge calls, this invocation
        double spentUsd = 0;          // the experiment's, across every resume
        double elapsedS = 0;
        std::optional<double> etaS;
    };

    struct Outcome {
        ExperimentStatus status = ExperimentStatus::Finished;
        int64_t ran = 0;               // trials this invocation stored
        int64_t skipped = 0;           // already stored before
        int64_t stored = 0;            // of this run's trials, now stored
        std::string note;              // why it stopped early
        std::string error;             // why it could not run, or not to the end (status Failed once it started)
        std::vector<ClockKind> clocks; // per design: the clock its trials ran on
    };

    ExperimentRunner(Engine& engine, TrialSink& sink, ExperimentSpec spec, Options options);
    ~ExperimentRunner();

    // Called on the runner's thread after each stored trial.
    void setProgressHandler(std::function<void(const Progress&)> handler);
    Outcome run();
    // Dispatches nothing new; with cancelInFlight, cancels the runs going (their trials are not stored).
    void stop(std::string why, bool cancelInFlight = true);

    const ExperimentSpec& spec() const { return m_spec; }
    std::string id() const { return m_id; }

private:
    struct Stopping;

    Engine& m_engine;
    TrialSink& m_sink;
    ExperimentSpec m_spec;
    Options m_options;
    std::string m_id;
    std::function<void(const Progress&)> m_onProgress;
    std::unique_ptr<Stopping> m_stopping;
};

} // namespace conclave
