#pragma once

#include "conclave/store/ExperimentRecords.h"
#include "conclave/store/RunQueries.h"
#include "conclave/store/RunRecorder.h"
#include "conclave/store/RunStoreWriter.h"
#include "conclave/store/SqliteDb.h"
#include "conclave/store/StoredRun.h"

#include <chrono>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace conclave {

struct Team;

// The run store: every run in one SQLite file.
//
// Promises: opening never overwrites a file it cannot use — a file that is
// empty, not SQLite, corrupt, read-only or from a newer Conclave gives a clear
// error and stays byte-for-byte as it was; a usable file is brought to the
// current schema in one transaction and any run left `running` by a process
// that died is marked `interrupted`, keeping its committed spans. Runs are
// written by one writer thread (RunStoreWriter) fed by RunRecorder observers;
// readers use connections of their own (RunQueries), so they never block it.
// It never knows about the engine's internals, Qt or the CLI.
class RunStore {
public:
    struct Options {
        RunStoreWriter::Options writer;
        size_t textCapBytes = 64 * 1024; // streamed text kept per span
    };

    struct Opened {
        std::unique_ptr<RunStore> store;
        std::string error; // "FILE: what is wrong", when store is null
    };

    static Opened open(const std::filesystem::path& file);
    static Opened open(const std::filesystem::path& file, Options options);

    // $XDG_DATA_HOME/conclave/runs.sqlite, else ~/.local/share/conclave/runs.sqlite.
    static std::filesystem::path defaultPath();
    // The --db value when given, else $CONCLAVE_DB, else defaultPath().
    static std::filesystem::path resolvePath(const std::optional<std::string>& dbOption);

    ~RunStore();
    RunStore(const RunStore&) = delete;
    RunStore& operator=(const RunStore&) = delete;

    const std::filesystem::path& path() const { return m_path; }
    // How many runs this open marked interrupted.
    int recoveredRuns() const { return m_recovered; }

    // An observer that stores a new run of `team`; pass it to Engine::start.
    // The recorder must outlive the run; the store must outlive the recorder.
    std::unique_ptr<RunRecorder> record(const Team& team, std::string& error);
    // The same for a trial of an experiment: the run is tagged with it, so run
    // lists hide it and only deleting the experiment removes it.
    std::unique_ptr<RunRecorder> record(const Team& team, std::string& error, const std::string& experimentId);
    // Commits everything queued so far.
    void flush();

    // A reader on its own connection (one per thread).
    std::unique_ptr<RunQueries> reader(std::string& error) const;

    // Deletes runs with their spans; how many were deleted, or an error.
    struct Deleted {
        int count = 0;
        std::string error;
    };
    Deleted remove(const std::vector<RunId>& ids);
    // Keeps the `keep` most recent runs that are not running; deletes the other finished ones.
    Deleted prune(int keep);

    static RunId newRunId();

    // Experiments (ExperimentRows.cpp). Written on this store's own connection
    // from one thread (an experiment's runner); trials and run tags are
    // batched and committed every 64 rows, every 200 ms and at flush().
    // Inserts an experiment, or updates its name, status, end, note and
    // planned trials; a stored spec never changes. Marks this process as its writer.
    std::optional<std::string> saveExperiment(const ExperimentRecord& experiment);
    void addTrial(const TrialRecord& trial);
    // Commits the batched trials and run tags; the first error since the last call.
    std::optional<std::string> flushTrials();
    // Deletes an experiment, its trials and their runs; the count is of runs.
    Deleted removeExperiment(const std::string& id);
    struct Merged {
        int experiments = 0;
        int trials = 0;
        int runs = 0;
        std::string error; // nothing is merged then
    };
    // Copies the experiments of another store (a shard) into this one, with
    // their trials and runs: all or nothing, the other file untouched. Refuses
    // an experiment whose id is here with a different spec.
    Merged mergeFrom(const std::filesystem::path& other);

private:
    RunStore(std::filesystem::path path, SqliteDb db, Options options);
    int recoverInterrupted();
    int recoverExperiments();
    void tagRun(const RunId& run, const std::string& experimentId);
    std::optional<std::string> commitPending();

    struct Pending {
        std::vector<std::pair<std::string, std::string>> tags; // run, experiment
        std::vector<TrialRecord> trials;
        std::chrono::steady_clock::time_point since{};
        std::optional<std::string> error;
    };
    Pending m_pending;
    Deleted removeWhere(const std::vector<std::string>& ids);

    std::filesystem::path m_path;
    SqliteDb m_db;
    Options m_options;
    int m_recovered = 0;
    std::shared_ptr<RunStoreWriter> m_writer;
};

} // namespace conclave
