#pragma once

#include "conclave/engine/RunObserver.h"

#include <atomic>
#include <cstdio>

namespace conclave::cli {

// The live line on a terminal's stderr: agents running / done / failed, elapsed, cost so far.
// Counts arrive on engine threads; print() runs on the CLI's own thread.
class ProgressLine : public RunObserver {
public:
    void nodeQueued(const NodeId&, int64_t) override { m_running.fetch_add(1); }
    void nodeFinished(const NodeId&, const NodeResult& result, int64_t atUs) override;
    void spanFinished(const Span& span) override;

    void print(std::FILE* out) const;
    static void clear(std::FILE* out);

private:
    std::atomic<int> m_running{0};
    std::atomic<int> m_done{0};
    std::atomic<int> m_failed{0};
    std::atomic<int64_t> m_elapsedUs{0};
    std::atomic<int64_t> m_costMicroUsd{0};
};

} // namespace conclave::cli
