#pragma once

#include "conclave/engine/ModelBackend.h"

#include <cstdint>
#include <deque>
#include <optional>

namespace conclave {

// The max_concurrency rule of a backend that serves calls on a run's clock
// (a replaying RecordedBackend, a local-moe LocalMoeBackend): at most `limit`
// calls are served at once (0: no limit), the rest wait their turn in the
// order they arrived, as at an endpoint. Plain bookkeeping: no clock, no
// lock; its owner's lock guards it and its owner times the calls.
class AdmissionQueue {
public:
    explicit AdmissionQueue(int64_t limit = 0) : m_limit(limit) {}

    // true: served at once (it takes a slot); false: it waits.
    bool arrive(CallId call);
    // A served call is done: its slot goes to the first waiting call, if any,
    // which is then served (the caller starts it).
    std::optional<CallId> release();
    // A waiting call leaves without being served (cancelled); false when it was not waiting.
    bool leave(CallId call);

    int64_t serving() const { return m_serving; }
    size_t waiting() const { return m_waiting.size(); }
    int64_t limit() const { return m_limit; }

private:
    bool hasRoom() const { return m_limit <= 0 || m_serving < m_limit; }

    int64_t m_limit;
    int64_t m_serving = 0;
    std::deque<CallId> m_waiting;
};

} // namespace conclave
