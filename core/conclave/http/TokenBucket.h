#pragma once

#include <chrono>
#include <cstdint>
#include <optional>

namespace conclave {

// A requests-per-minute limit as a token bucket: it refills at rate/60 tokens
// a second and holds at most one second's worth (at least one token), so a
// burst never exceeds what the server allows in a second. Not thread-safe.
class TokenBucket {
public:
    using Clock = std::chrono::steady_clock;

    explicit TokenBucket(int64_t perMinute);

    // A new rate keeps the tokens already saved, up to the new capacity.
    void setRate(int64_t perMinute);
    // Takes a token and returns nothing, or returns when the next one is due.
    std::optional<Clock::time_point> tryTake(Clock::time_point now);

    int64_t perMinute() const { return m_perMinute; }

private:
    void refill(Clock::time_point now);

    int64_t m_perMinute = 0;
    double m_perSecond = 0;
    double m_capacity = 1;
    double m_tokens = 1;
    std::optional<Clock::time_point> m_last;
};

} // namespace conclave
