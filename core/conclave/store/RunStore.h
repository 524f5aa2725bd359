#pragma once

#include "conclave/store/ExperimentRecords.h"
#include "conclave/store/RunQueries.h"
#include "conclave/store/RunRecorder.h"
#include "conclave/store/RunStoreWriter.h"
#include "conclave/store/ShardMerger.h"
#include "conclave/store/SqliteDb.h"
#include "conclave/store/StoredRun.h"

#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace conclave {

struct Team;

// The run store: every run in one SQLite file, and the experiments whose
// trials some of those runs are.
//
// Promises: opening never overwrites a file it cannot use — a file that is
// empty, not SQLite, corrupt, read-only or from a newer Conclave gives a clear
// error and stays byte-for-byte as it was; a usable file is brought to the
// current schema in one transaction and any run or experiment left `running`
// by a process that died is marked `interrupted`, keeping its committed spans
// and trials. Runs, experiments and trials are written by one writer thread
// (RunStoreWriter), so recording never waits on SQLite; readers use
// connections of their own (RunQueries), so they never block it. A trial's run
// is deleted only with its experiment. It never knows about the engine's
// internals, Qt or the CLI.
//
// A store opened for reading (Access::Read: `runs list`, `experiments show`,
// `calibrate`) never creates a file and never marks anything interrupted — its
// readers show a run or experiment whose writer is gone as `interrupted`
// without writing it (LiveStatus). Its one write is migrating a store of an
// older schema, when the file is writable; a read-only file of an older
// schema is refused with how to upgrade it. It refuses every other write.
class RunStore {
public:
    enum class Access { Write, Read };

    struct Options {
        RunStoreWriter::Options writer;
        size_t textCapBytes = 64 * 1024; // streamed text kept per span
        Access access = Access::Write;
    };

    struct Opened {
        std::unique_ptr<RunStore> store;
        std::string error; // "FILE: what is wrong", when store is null
    };

    static Opened open(const std::filesystem::path& file);
    static Opened open(const std::filesystem::path& file, Options options);
    // open() with Access::Read: "FILE: no such run store" when the file does not exist.
    static Opened openForReading(const std::filesystem::path& file);

    // $XDG_DATA_HOME/conclave/runs.sqlite, else ~/.local/share/conclave/runs.sqlite.
    static std::filesystem::path defaultPath();
    // The --db value when given, else $CONCLAVE_DB, else defaultPath().
    static std::filesystem::path resolvePath(const std::optional<std::string>& dbOption);

    ~RunStore();
    RunStore(const RunStore&) = delete;
    RunStore& operator=(const RunStore&) = delete;

    const std::filesystem::path& path() const { return m_path; }
    Access access() const { return m_options.access; }
    // How many runs this open marked interrupted.
    int recoveredRuns() const { return m_recovered; }
    // How many experiments this open marked interrupted.
    int recoveredExperiments() const { return m_recoveredExperiments; }

    // An observer that stores a new run of `team`; pass it to Engine::start.
    // The recorder must outlive the run; the store must outlive the recorder.
    std::unique_ptr<RunRecorder> record(const Team& team, std::string& error);
    // The same for a trial of experiment `experimentId` (empty: an ordinary run):
    // its row carries the id, so run lists hide it and only deleting the
    // experiment removes it.
    std::unique_ptr<RunRecorder> record(const Team& team, std::string& error, const std::string& experimentId);
    // The same with where the run comes from (RunOrigin: its source, experiment, API key's name).
    std::unique_ptr<RunRecorder> record(const Team& team, std::string& error, RunOrigin origin);
    // Commits everything queued so far: runs, experiments and trials.
    void flush();

    // Queues an experiment's row for the writer: inserted when new, else its
    // name, status, planned trials, end and note are updated (never its spec,
    // designs, task set or start). This process becomes its writer, the one
    // whose death marks it interrupted. An error only when nothing can be
    // queued (no id, or the writer cannot start); write errors come from flushTrials().
    std::optional<std::string> saveExperiment(const ExperimentRecord& experiment);
    // Queues a trial's row, replacing one with the same (experiment, design,
    // task, seed). Queued after its run's operations, it is committed with or after them.
    void addTrial(const TrialRecord& trial);
    // flush(), then the writer's first error since it started, if any.
    std::optional<std::string> flushTrials();
    // Trial rows addTrial queued that are certainly not stored: in batches the
    // writer gave up after its retries, or never queued (no writer could start).
    // After flushTrials() it counts every trial added before it.
    int64_t lostTrials() const;

    // A reader on its own connection (one per thread).
    std::unique_ptr<RunQueries> reader(std::string& error) const;
    // A reader of the store file, opened as openForReading opens it: a store of
    // an older schema is upgraded first (or refused when read-only, saying how to
    // upgrade it), so the queries find every column they read.
    static std::unique_ptr<RunQueries> openReader(const std::filesystem::path& file, std::string& error);

    // Deletes runs with their spans; how many were deleted, or an error.
    struct Deleted {
        int count = 0;
        std::string error;
    };
    // Refuses, deleting nothing, when one of the runs is a trial of an experiment.
    Deleted remove(const std::vector<RunId>& ids);
    // Keeps the `keep` most recent runs that are neither running nor trials of
    // an experiment; deletes the other such ones. Trials are never counted nor deleted.
    Deleted prune(int keep);
    // prune(keep) over the runs of one source only (`conclave serve` keeping its
    // last N): runs of other sources are neither counted nor deleted.
    Deleted pruneSource(RunSource source, int keep);
    // Deletes an experiment, its trials and its runs with their spans, texts
    // and node results, in one transaction; the count is of runs.
    Deleted removeExperiment(const std::string& id);
    // Deletes the runs of experiment `id` that have ended and that no trial
    // refers to: a trial cancelled in flight, or while its judge ran, is run
    // again on a resume, and its first run must not stay behind. Commits first.
    Deleted removeUntriedRuns(const std::string& id);

    using Merged = ShardMerger::Merged;
    // Copies every experiment of another store file (a shard) with its trials
    // and their runs into this one, in one transaction: all or nothing. The
    // other file is read only and never modified. Runs copied half-written by
    // an earlier merge are replaced; spend is counted once per shard. See ShardMerger.
    Merged mergeFrom(const std::filesystem::path& other);
    // Copies the runs of another store file that are no experiment's trial
    // (`conclave runs merge`), with their spans, texts and node results, in one
    // transaction; runs already here are kept. See ShardMerger::mergeRuns.
    ShardMerger::MergedRuns mergeRunsFrom(const std::filesystem::path& other);

    static RunId newRunId();

private:
    RunStore(std::filesystem::path path, SqliteDb db, SqliteDb::Mode mode, Options options);
    // The writer, started on first use from any thread; null with `error` when it cannot start.
    std::shared_ptr<RunStoreWriter> startWriter(std::string& error);
    // The writer when it has started (null before), from any thread.
    std::shared_ptr<RunStoreWriter> writer() const;
    // "FILE: opened for reading only" when the store was opened for reading.
    std::optional<std::string> refuseWrite() const;
    // The ids of a table's rows left `running` by a process that is gone.
    std::vector<std::string> runningWithDeadWriter(std::string_view table);
    static std::optional<std::string> migrate(SqliteDb& db, const std::filesystem::path& file);
    int recoverInterrupted();
    int recoverExperiments();
    Deleted removeWhere(const std::vector<std::string>& ids);
    // prune's one rule: of the ended runs that are no trial (of `source` only,
    // when set), keeps the `keep` most recent and deletes the others.
    Deleted pruneWhere(std::optional<RunSource> source, int keep);

    std::filesystem::path m_path;
    SqliteDb m_db;
    SqliteDb::Mode m_mode; // how m_db was opened, and how readers open the file
    Options m_options;
    int m_recovered = 0;
    int m_recoveredExperiments = 0;

    mutable std::mutex m_writerMutex; // guards the two below
    std::shared_ptr<RunStoreWriter> m_writer;
    int64_t m_unqueuedTrials = 0; // addTrial found no writer
};

} // namespace conclave
