#include "conclave/http/HttpHub.h"

#include "conclave/http/OpenAiSettings.h"

namespace conclave {

HttpHub::~HttpHub() = default;

HttpMultiLoop& HttpHub::loop()
{
    std::lock_guard lock(m_mutex);
    if (!m_loop)
        m_loop = std::make_unique<HttpMultiLoop>();
    return *m_loop;
}

std::shared_ptr<EndpointLimits> HttpHub::limitsFor(const Backend& block)
{
    const auto maxConcurrency = block.maxConcurrency.value_or(OpenAiSettings::kDefaultMaxConcurrency);
    // A NUL cannot occur in either part, so the key is unambiguous.
    std::string key = block.baseUrl.value_or("");
    while (!key.empty() && key.back() == '/')
        key.pop_back();
    key += '\0';
    key += block.apiKeyEnv.value_or("");
    std::lock_guard lock(m_mutex);
    auto& limits = m_limits[key];
    if (!limits)
        limits = std::make_shared<EndpointLimits>(maxConcurrency, block.requestsPerMinute);
    else
        limits->configure(maxConcurrency, block.requestsPerMinute);
    return limits;
}

} // namespace conclave
