#include "conclave/experiment/SharedEndpoints.h"

#include <algorithm>
#include <map>
#include <optional>
#include <string>

namespace conclave {

namespace {

void keepSmallest(std::optional<int64_t>& smallest, const std::optional<int64_t>& value)
{
    if (value)
        smallest = smallest ? std::min(*smallest, *value) : *value;
}

} // namespace

void shareEndpointLimits(std::vector<Team>& teams)
{
    struct Limits {
        std::optional<int64_t> maxConcurrency;
        std::optional<int64_t> requestsPerMinute;
    };
    std::map<std::string, Limits> byUrl;
    for (const auto& team : teams) {
        for (const auto& [name, backend] : team.backends) {
            if (backend.kind != BackendKind::OpenAi || !backend.baseUrl)
                continue;
            auto& limits = byUrl[*backend.baseUrl];
            keepSmallest(limits.maxConcurrency, backend.maxConcurrency);
            keepSmallest(limits.requestsPerMinute, backend.requestsPerMinute);
        }
    }
    for (auto& team : teams) {
        for (auto& [name, backend] : team.backends) {
            if (backend.kind != BackendKind::OpenAi || !backend.baseUrl)
                continue;
            const auto& limits = byUrl.at(*backend.baseUrl);
            backend.maxConcurrency = limits.maxConcurrency;
            backend.requestsPerMinute = limits.requestsPerMinute;
        }
    }
}

} // namespace conclave
