#pragma once

namespace conclave {

// libcurl's process-wide setup. curl_global_init must run once before any
// other libcurl call and is not safe to race, so everything that makes a
// handle calls ensure() first; libcurl keeps its global state until exit.
class CurlGlobal {
public:
    static void ensure();
};

} // namespace conclave
