#pragma once

#include "conclave/serve/ApiKeys.h"
#include "conclave/serve/ServeError.h"

#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <variant>

namespace conclave {

// Each API key's limits at admission (docs/serve.md, "Limits"): requests per
// minute over a sliding minute, requests at once (running or queued), and
// spend per UTC day. A day's spend starts from what the store says the key
// spent that day before (so a restart does not reset it); admission reserves
// a run's cost bound, and the end of the run settles its real cost.
// Thread-safe.
class KeyLimits {
public:
    using Clock = std::chrono::system_clock;
    // What `keyName` spent in served runs started since `dayStartMs` (ms since
    // the epoch), from the store; nullopt when it cannot be read.
    using StoredSpend = std::function<std::optional<double>(const std::string& keyName, int64_t dayStartMs)>;

    explicit KeyLimits(StoredSpend storedSpend);

    // What admission took, to give back at the end.
    struct Ticket {
        std::string keyName;
        int64_t day = 0;       // the UTC day the reservation was made on
        double reservedUsd = 0;
    };
    // Admits a request of `key` that may cost up to `reserveUsd`, or says why
    // not: 429 rate_limit_exceeded (rpm, concurrency) or insufficient_quota.
    std::variant<Ticket, ServeError> admit(const ApiKey& key, double reserveUsd, Clock::time_point now);
    // The request ended; its run cost `costUsd` (0 when it never ran).
    void release(const Ticket& ticket, double costUsd);

    static int64_t utcDay(Clock::time_point t);

private:
    struct State {
        std::deque<Clock::time_point> admitted; // within the last minute
        int open = 0;
        int64_t day = -1;
        double spentUsd = 0;    // settled today, including what the store had
        double reservedUsd = 0; // held by runs still going
    };

    StoredSpend m_storedSpend;
    std::mutex m_mutex;
    std::map<std::string, State> m_states;
};

} // namespace conclave
