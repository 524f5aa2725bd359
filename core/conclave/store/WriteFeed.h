#pragma once

#include "conclave/store/WriteOp.h"

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace conclave {

// How much of a run has reached the database (committed, not merely queued).
struct WriteProgress {
    std::atomic<uint64_t> spansStarted{0};  // spans 1..n are stored
    std::atomic<uint64_t> spansFinished{0}; // spans stored with their end
    std::atomic<bool> finished{false};      // the run's end is stored, durably
};

// Operations are queued in chunks of fixed capacity, so an append never moves
// the operations queued before it. Written chunks come back here, emptied, for
// the next appends of any run: once the store is warm, queueing never allocates.
class WriteChunkPool {
public:
    using Chunk = std::vector<WriteOp>;
    static constexpr size_t kChunkSize = 256;

    // An empty chunk with room for kChunkSize operations.
    Chunk take();
    // Keeps the chunks, cleared, up to a bound (128 chunks, about 9 MB); frees the rest.
    void giveBack(std::vector<Chunk>& chunks);

private:
    std::mutex m_mutex;
    std::vector<Chunk> m_free;
};

// One run's queue of writes. Its recorder appends on the engine's threads;
// the writer thread takes everything queued at once.
class WriteFeed {
public:
    using Chunk = WriteChunkPool::Chunk;

    WriteFeed(std::string run, std::shared_ptr<WriteChunkPool> pool) : m_run(std::move(run)), m_pool(std::move(pool)) {}

    const std::string& run() const { return m_run; }
    WriteProgress& progress() { return m_progress; }
    // The writer thread's own: when each node not yet written was first queued.
    std::unordered_map<NodeId, int64_t>& queuedAt() { return m_queuedAt; }

    // Queues one operation, built in place; returns how many are queued now.
    template <class Op, class... Args> size_t emplace(Args&&... args)
    {
        std::lock_guard lock(m_mutex);
        if (m_chunks.empty() || m_chunks.back().size() == WriteChunkPool::kChunkSize)
            m_chunks.push_back(m_pool->take());
        // Op{…}, not in-place (…): the ops are aggregates, and clang before 16
        // cannot initialise an aggregate from parentheses (P0960).
        m_chunks.back().emplace_back(std::in_place_type<Op>, Op{std::forward<Args>(args)...});
        return ++m_queued;
    }

    // Moves every queued chunk into `chunks` (which the writer passes empty).
    void take(std::vector<Chunk>& chunks)
    {
        std::lock_guard lock(m_mutex);
        chunks.swap(m_chunks);
        m_queued = 0;
    }

private:
    const std::string m_run;
    const std::shared_ptr<WriteChunkPool> m_pool;
    WriteProgress m_progress;
    std::mutex m_mutex;
    std::vector<Chunk> m_chunks; // queued, oldest first
    size_t m_queued = 0;
    std::unordered_map<NodeId, int64_t> m_queuedAt;
};

} // namespace conclave
