#pragma once

#include <cstdint>
#include <string>
#include <thread>

namespace conclave::studio {

// One POST /v1/chat/completions to a team the studio serves, sent as any
// client would send it, on a thread of its own so the studio's GUI thread
// serves on while it waits (--serve-call, for screenshots). The answer is
// read and dropped: the request shows in the serve dialog as any other.
class ServeCall {
public:
    ServeCall(uint16_t port, const std::string& model, const std::string& input);
    ~ServeCall(); // waits for the answer
    ServeCall(const ServeCall&) = delete;
    ServeCall& operator=(const ServeCall&) = delete;

private:
    std::thread m_thread;
};

} // namespace conclave::studio
