#pragma once

#include "conclave/store/ExperimentRowWriter.h"
#include "conclave/store/SqliteDb.h"
#include "conclave/store/WriteFeed.h"

#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace conclave {

// The store's one writer: a thread that takes what every run's feed has queued
// and writes it in one transaction, once per `maxDelay`, or sooner when a feed
// holds `maxBatch` operations or somebody flushes. During a run commits use
// synchronous=NORMAL (WAL); the batch holding a run's end is committed with
// synchronous=FULL, so a finished run survives a power cut. Experiments and
// trials are queued apart (pushExperiment) and written in the same batches,
// after the runs' operations. push() and pushExperiment() never touch SQLite:
// they only queue. A batch that fails to commit (a busy or full disk, a
// trigger) is rolled back and tried again, `commitAttempts` times in all with a
// doubling backoff; when the last attempt fails too, the batch is dropped, its
// error kept (error()) and its trial rows counted (lostTrials()).
class RunStoreWriter {
public:
    struct Options {
        std::chrono::milliseconds maxDelay{50};
        size_t maxBatch = 50000;
        // A lower CPU priority for the writer thread, so that on a busy machine
        // the engine's threads run first and the writer catches up while calls wait.
        bool lowPriority = true;
        // Checkpoint the WAL after a run's end, or once it holds this many operations.
        size_t checkpointEvery = 1000000;
        // Commits of one batch before it is given up, and the wait before the second (doubled after each).
        int commitAttempts = 4;
        std::chrono::milliseconds retryBackoff{10};
    };

    // Opens the writer's own connection to an existing, migrated store.
    static std::unique_ptr<RunStoreWriter> start(const std::filesystem::path& file, Options options,
                                                 std::string& error);
    ~RunStoreWriter();

    RunStoreWriter(const RunStoreWriter&) = delete;
    RunStoreWriter& operator=(const RunStoreWriter&) = delete;

    // A feed for one run's operations, which the writer drains until detached.
    std::shared_ptr<WriteFeed> attach(std::string run);
    // Flushes, then forgets the feed.
    void detach(const std::shared_ptr<WriteFeed>& feed);

    // Queues one operation on `feed`.
    template <class Op, class... Args> void push(WriteFeed& feed, Args&&... args)
    {
        const size_t queued = feed.emplace<Op>(std::forward<Args>(args)...);
        // Wake the writer when a feed starts a batch or fills one: once per batch, not per event.
        if (queued == 1 || queued == m_options.maxBatch)
            wake(queued == m_options.maxBatch);
    }

    // Queues an experiment's or a trial's row. It is committed in the same batch as,
    // or a later batch than, every run operation pushed before it, and durably.
    void pushExperiment(ExperimentWriteOp op);

    // Blocks until everything pushed before the call is committed (or failed).
    void flush();
    // The error of the first batch given up, if any (that batch is lost; later ones still try).
    std::string error() const;
    // Trial rows in batches given up: queued, and certainly not stored.
    int64_t lostTrials() const;

private:
    // One feed's operations taken for this batch.
    struct Taken {
        std::shared_ptr<WriteFeed> feed;
        std::vector<WriteFeed::Chunk> chunks;
    };

    RunStoreWriter(SqliteDb db, Options options);
    void wake(bool full);
    void loop();
    void write(std::vector<Taken>& batch, const std::vector<ExperimentWriteOp>& experimentOps);
    // One attempt at committing the batch: SQLite's error, or empty when it is stored.
    std::string commit(const std::vector<Taken>& batch, const std::vector<ExperimentWriteOp>& experimentOps,
                       bool durable);
    bool writeAll(const std::vector<Taken>& batch, const std::vector<ExperimentWriteOp>& experimentOps);
    bool writeOps(WriteFeed& feed, const std::vector<WriteFeed::Chunk>& chunks);
    bool writeRow(std::string_view run, const write_op::RunBegin& begin);
    bool writeRow(std::string_view run, const write_op::SpanRow& row);
    bool writeRow(std::string_view run, const write_op::NodeRow& row, int64_t queuedUs);
    bool writeRow(std::string_view run, const write_op::RunEnd& end);
    static void noteProgress(const Taken& taken);
    void undoQueuedAt();

    // What writeOps changed in the feeds' queuedAt maps during the attempt under way,
    // undone when it fails so that the next attempt starts where this one did.
    struct QueuedAtChange {
        WriteFeed* feed;
        NodeId node;
        int64_t atUs;
        bool inserted; // else erased
    };

    SqliteDb m_db;
    Options m_options;
    SqliteStatement m_insertRun, m_upsertSpan, m_insertText, m_insertNode, m_endRun;
    ExperimentRowWriter m_experimentRows;

    mutable std::mutex m_mutex;
    std::condition_variable m_wake;
    std::condition_variable m_committedCv;
    std::vector<std::shared_ptr<WriteFeed>> m_feeds;
    std::vector<ExperimentWriteOp> m_experimentOps; // queued, oldest first
    const std::shared_ptr<WriteChunkPool> m_pool = std::make_shared<WriteChunkPool>();
    bool m_pending = false;                        // a feed has queued something since the last take
    bool m_full = false;                           // a feed holds maxBatch operations
    uint64_t m_flushWanted = 0;                    // flush requests so far
    uint64_t m_flushDone = 0;                      // requests whose operations are committed
    size_t m_sinceCheckpoint = 0;                  // writer thread only
    bool m_checkpointDue = false;                  // writer thread only
    std::vector<QueuedAtChange> m_queuedAtChanges; // writer thread only
    bool m_stop = false;
    std::string m_error;
    int64_t m_lostTrials = 0;
    std::thread m_thread;
};

} // namespace conclave
