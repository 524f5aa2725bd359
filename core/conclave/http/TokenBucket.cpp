#include "conclave/http/TokenBucket.h"

#include <algorithm>
#include <cmath>

namespace conclave {

TokenBucket::TokenBucket(int64_t perMinute)
{
    setRate(perMinute);
    m_tokens = m_capacity;
}

void TokenBucket::setRate(int64_t perMinute)
{
    m_perMinute = std::max<int64_t>(1, perMinute);
    m_perSecond = double(m_perMinute) / 60.0;
    m_capacity = std::max(1.0, std::floor(m_perSecond));
    m_tokens = std::min(m_tokens, m_capacity);
}

void TokenBucket::refill(Clock::time_point now)
{
    if (m_last && now > *m_last) {
        const double seconds = std::chrono::duration<double>(now - *m_last).count();
        m_tokens = std::min(m_capacity, m_tokens + seconds * m_perSecond);
    }
    if (!m_last || now > *m_last)
        m_last = now;
}

std::optional<TokenBucket::Clock::time_point> TokenBucket::tryTake(Clock::time_point now)
{
    refill(now);
    if (m_tokens >= 1.0) {
        m_tokens -= 1.0;
        return std::nullopt;
    }
    const double wait = (1.0 - m_tokens) / m_perSecond;
    return now + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(wait)) +
           std::chrono::microseconds(1);
}

} // namespace conclave
