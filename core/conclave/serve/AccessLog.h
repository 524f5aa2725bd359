#pragma once

#include <mutex>
#include <nlohmann/json.hpp>
#include <ostream>

namespace conclave {

// One JSON line per request (docs/serve.md, "Access log"), written whole under
// a lock so lines from concurrent requests never interleave. Never given a
// key: a request's key appears by its name only.
class AccessLog {
public:
    explicit AccessLog(std::ostream* out) : m_out(out) {}
    void write(nlohmann::ordered_json line);

private:
    std::ostream* m_out; // null: no log
    std::mutex m_mutex;
};

} // namespace conclave
