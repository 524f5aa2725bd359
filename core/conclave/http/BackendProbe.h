#pragma once

#include "conclave/model/Team.h"

#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace conclave {

class HttpHub;

// What `conclave backends check` found out about one backend.
struct ProbeResult {
    std::string backend;
    std::string kind;
    bool ok = false;
    double latencyMs = 0;
    std::string detail;  // what answered, or why it failed (never the key)
};

// Reaches each backend of a team once: a local-moe backend is always there;
// an openai backend is asked for its models (GET /models) or, when it has no
// such endpoint, for a one-token completion of a model the team uses on it.
class BackendProbe {
public:
    explicit BackendProbe(HttpHub& hub, std::chrono::milliseconds timeout = std::chrono::seconds(20));

    std::vector<ProbeResult> check(const Team& team);
    ProbeResult checkOpenAi(const std::string& name, const Backend& block, const std::optional<std::string>& model);

    // The first model the team calls on that backend, if any.
    static std::optional<std::string> modelUsedOn(const Team& team, const BackendName& backend);

private:
    HttpHub& m_hub;
    std::chrono::milliseconds m_timeout;
};

} // namespace conclave
