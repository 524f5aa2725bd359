#include "conclave/http/CurlGlobal.h"

#include <curl/curl.h>

#include <mutex>
#include <stdexcept>

namespace conclave {

void CurlGlobal::ensure()
{
    static std::once_flag once;
    std::call_once(once, [] {
        if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK)
            throw std::runtime_error("libcurl could not be initialised");
    });
}

} // namespace conclave
