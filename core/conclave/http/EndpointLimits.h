#pragma once

#include "conclave/http/TokenBucket.h"

#include <cstdint>
#include <mutex>
#include <optional>

namespace conclave {

// The limits of one endpoint (one base URL and key), shared by every backend
// and every run that calls it: at most `max_concurrency` requests in flight
// (the rest wait in the loop's queue) and at most `requests_per_minute` starts
// (a token bucket). Thread-safe; the multi loop admits and releases, runs
// reconfigure.
class EndpointLimits {
public:
    EndpointLimits(std::optional<int64_t> maxConcurrency, std::optional<int64_t> requestsPerMinute);

    // The latest team's settings win; requests in flight are not disturbed.
    void configure(std::optional<int64_t> maxConcurrency, std::optional<int64_t> requestsPerMinute);

    struct Admission {
        bool admitted = false;
        std::optional<TokenBucket::Clock::time_point> retryAt;  // when the rate allows the next start
    };
    // Admits one request if both limits allow it; it must be released once.
    Admission tryAdmit(TokenBucket::Clock::time_point now);
    void release();

    int64_t inFlight() const;

private:
    mutable std::mutex m_mutex;
    std::optional<int64_t> m_maxConcurrency;
    std::optional<TokenBucket> m_bucket;
    int64_t m_inFlight = 0;
};

} // namespace conclave
