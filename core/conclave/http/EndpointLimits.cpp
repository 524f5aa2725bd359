#include "conclave/http/EndpointLimits.h"

namespace conclave {

EndpointLimits::EndpointLimits(std::optional<int64_t> maxConcurrency, std::optional<int64_t> requestsPerMinute)
{
    configure(maxConcurrency, requestsPerMinute);
}

void EndpointLimits::configure(std::optional<int64_t> maxConcurrency, std::optional<int64_t> requestsPerMinute)
{
    std::lock_guard lock(m_mutex);
    m_maxConcurrency = maxConcurrency;
    if (!requestsPerMinute)
        m_bucket.reset();
    else if (m_bucket)
        m_bucket->setRate(*requestsPerMinute);
    else
        m_bucket.emplace(*requestsPerMinute);
}

EndpointLimits::Admission EndpointLimits::tryAdmit(TokenBucket::Clock::time_point now)
{
    std::lock_guard lock(m_mutex);
    Admission a;
    if (m_maxConcurrency && m_inFlight >= *m_maxConcurrency)
        return a;  // a release will wake the loop
    if (m_bucket) {
        a.retryAt = m_bucket->tryTake(now);
        if (a.retryAt)
            return a;
    }
    ++m_inFlight;
    a.admitted = true;
    return a;
}

void EndpointLimits::release()
{
    std::lock_guard lock(m_mutex);
    if (m_inFlight > 0)
        --m_inFlight;
}

int64_t EndpointLimits::inFlight() const
{
    std::lock_guard lock(m_mutex);
    return m_inFlight;
}

} // namespace conclave
