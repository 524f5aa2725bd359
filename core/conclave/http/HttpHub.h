#pragma once

#include "conclave/http/EndpointLimits.h"
#include "conclave/http/HttpMultiLoop.h"
#include "conclave/model/Backend.h"

#include <map>
#include <memory>
#include <mutex>
#include <string>

namespace conclave {

// What every HTTP backend of an engine shares: the one multi loop (started on
// first use, so an engine that never calls a server has no HTTP thread) and
// the limits of each endpoint, so that two runs of the same team, or two
// teams calling the same server with the same key, queue behind one
// max_concurrency and one requests_per_minute. Owned by the Engine; it must
// outlive the backends made from it.
class HttpHub {
public:
    HttpHub() = default;
    ~HttpHub();
    HttpHub(const HttpHub&) = delete;
    HttpHub& operator=(const HttpHub&) = delete;

    HttpMultiLoop& loop();
    // The limits of the endpoint `block` calls (its base URL and key variable),
    // set to the block's values.
    std::shared_ptr<EndpointLimits> limitsFor(const Backend& block);

private:
    std::mutex m_mutex;
    std::unique_ptr<HttpMultiLoop> m_loop;
    std::map<std::string, std::shared_ptr<EndpointLimits>> m_limits;
};

} // namespace conclave
