#pragma once

#include "conclave/store/SqliteDb.h"
#include "conclave/store/WriteOp.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace conclave {

// How much of a run has reached the database (committed, not merely queued).
struct WriteProgress {
    std::atomic<uint64_t> spansStarted{0};  // spans 1..n are stored
    std::atomic<uint64_t> spansFinished{0}; // spans stored with their end
    std::atomic<bool> finished{false};      // the run's end is stored, durably
};

// The store's one writer: a thread that takes queued operations and writes them
// in batched transactions, one per `maxDelay` or per `maxBatch` operations,
// whichever comes first. During a run commits use synchronous=NORMAL (WAL); the
// batch holding a run's end is committed with synchronous=FULL, so a finished
// run survives a power cut. push() never touches SQLite: it only queues.
class RunStoreWriter {
public:
    struct Options {
        std::chrono::milliseconds maxDelay{50};
        size_t maxBatch = 20000;
        // A lower CPU priority for the writer thread, so that on a busy machine
        // the engine's threads run first and the writer catches up while calls wait.
        bool lowPriority = true;
        // Checkpoint the WAL after a run's end, or once it holds this many operations.
        size_t checkpointEvery = 1000000;
    };

    // Opens the writer's own connection to an existing, migrated store.
    static std::unique_ptr<RunStoreWriter> start(const std::filesystem::path& file, Options options,
                                                 std::string& error);
    ~RunStoreWriter();

    RunStoreWriter(const RunStoreWriter&) = delete;
    RunStoreWriter& operator=(const RunStoreWriter&) = delete;

    void push(WriteOp op);
    // Blocks until everything pushed before the call is committed (or failed).
    void flush();
    // Counters for a run, updated after each commit.
    std::shared_ptr<WriteProgress> track(const std::string& run);
    void untrack(const std::string& run);
    // The first write error, if any (the batch that failed is lost; later ones still try).
    std::string error() const;

private:
    RunStoreWriter(SqliteDb db, Options options);
    void loop();
    void write(std::vector<WriteOp>& batch);
    bool writeAll(std::vector<WriteOp>& batch);
    void noteProgress(const std::vector<WriteOp>& batch);

    SqliteDb m_db;
    Options m_options;
    SqliteStatement m_insertRun, m_upsertSpan, m_insertText, m_insertNode, m_endRun;

    mutable std::mutex m_mutex;
    std::condition_variable m_wake;
    std::condition_variable m_committedCv;
    std::vector<WriteOp> m_queue;
    uint64_t m_pushed = 0;
    uint64_t m_committed = 0;
    size_t m_sinceCheckpoint = 0; // writer thread only
    bool m_checkpointDue = false; // writer thread only
    bool m_flushWanted = false;
    bool m_stop = false;
    std::string m_error;
    std::map<std::string, std::shared_ptr<WriteProgress>> m_progress;
    std::thread m_thread;
};

} // namespace conclave
