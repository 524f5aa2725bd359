#pragma once

#include "conclave/engine/RunObserver.h"
#include "conclave/store/StoredRun.h"

#include <cstdint>
#include <string_view>
#include <vector>

namespace conclave {

struct Team;

// A run in progress as the StoredRun a timeline reads: an observer that folds
// a run's events into what the store will hold once the run has ended, so a
// reader can draw the run while it is still going.
//
// Promises: the spans in id order, each as its latest event left it (a span
// that has started and not finished is open: endUs -1); the nodes in the order
// they were queued, with their results once they settle; at runFinished
// everything of the result (status, totals, the critical path, the output).
// The finished snapshot then holds what the stored run holds, but for the
// streamed text and the Unix times. snapshot(nowUs) is the run as of nowUs:
// while it is going its wall time is nowUs (never before its latest event), so
// open spans reach up to now. Not thread-safe: one thread feeds and reads it
// (the GUI thread, with the events RunEventAdapter delivered; or an engine's
// serialised observer calls, read after the run).
class LiveRun : public RunObserver {
public:
    LiveRun(RunId id, const Team& team);

    const RunId& id() const { return m_run.summary.id; }
    bool finished() const { return m_finished; }
    // The latest run time an event carried.
    int64_t lastEventUs() const { return m_lastEventUs; }
    // The run as of `nowUs` (run time); once finished, as it ended, whatever the time asked.
    StoredRun snapshot(int64_t nowUs) const;

    void runStarted(std::string_view runInput, uint64_t seed, ClockKind clock) override;
    void nodeQueued(const NodeId& node, int64_t atUs) override;
    void spanStarted(const Span& span) override;
    void spanFinished(const Span& span) override;
    void nodeFinished(const NodeId& node, const NodeResult& result, int64_t atUs) override;
    void runFinished(const RunResult& result) override;

private:
    void putSpan(const Span& span);
    StoredNode& nodeOf(const NodeId& node);
    void saw(int64_t atUs);

    StoredRun m_run; // spans: indexed by id - 1; an id never seen has id 0
    bool m_finished = false;
    int64_t m_lastEventUs = 0;
};

} // namespace conclave
