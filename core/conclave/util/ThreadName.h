#pragma once

#include <pthread.h>

#include <string>

namespace conclave {

// Names the calling thread as `top -H`, `perf` and debuggers show it (the
// kernel keeps 15 characters; the rest is cut).
inline void nameThisThread(const std::string& name)
{
    pthread_setname_np(pthread_self(), name.substr(0, 15).c_str());
}

} // namespace conclave
