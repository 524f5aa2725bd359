#include "conclave/engine/AdmissionQueue.h"

#include <algorithm>

namespace conclave {

bool AdmissionQueue::arrive(CallId call)
{
    // Nobody overtakes a waiting call.
    if (m_waiting.empty() && hasRoom()) {
        ++m_serving;
        return true;
    }
    m_waiting.push_back(call);
    return false;
}

std::optional<CallId> AdmissionQueue::release()
{
    if (m_serving > 0)
        --m_serving;
    if (m_waiting.empty() || !hasRoom())
        return std::nullopt;
    const CallId next = m_waiting.front();
    m_waiting.pop_front();
    ++m_serving;
    return next;
}

bool AdmissionQueue::leave(CallId call)
{
    const auto it = std::find(m_waiting.begin(), m_waiting.end(), call);
    if (it == m_waiting.end())
        return false;
    m_waiting.erase(it);
    return true;
}

} // namespace conclave
