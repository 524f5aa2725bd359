#include "conclave/store/WriteFeed.h"

namespace conclave {

namespace {

// Enough for a batch window of a 10,000-wide fan-out; a bound on what an idle store holds.
constexpr size_t kMaxFreeChunks = 128;

} // namespace

WriteChunkPool::Chunk WriteChunkPool::take()
{
    {
        std::lock_guard lock(m_mutex);
        if (!m_free.empty()) {
            auto chunk = std::move(m_free.back());
            m_free.pop_back();
            return chunk;
        }
    }
    Chunk chunk;
    chunk.reserve(kChunkSize);
    return chunk;
}

void WriteChunkPool::giveBack(std::vector<Chunk>& chunks)
{
    // The operations' destructors run here, outside the lock.
    for (auto& chunk : chunks)
        chunk.clear();
    std::lock_guard lock(m_mutex);
    for (auto& chunk : chunks) {
        if (m_free.size() >= kMaxFreeChunks)
            break;
        m_free.push_back(std::move(chunk));
    }
    chunks.clear();
}

} // namespace conclave
