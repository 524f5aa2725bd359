#pragma once

// What a fuzz target asserts. A broken promise throws: under libFuzzer the
// uncaught exception aborts and the input is saved as a crash; in
// tst_fuzzreplay the test catches it and names the file.

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

namespace conclave::fuzz {

struct BrokenPromise : std::logic_error {
    using std::logic_error::logic_error;
};

inline void check(bool holds, const std::string& promise)
{
    if (!holds)
        throw BrokenPromise(promise);
}

inline std::string_view text(const uint8_t* data, size_t size)
{
    return size == 0 ? std::string_view() : std::string_view(reinterpret_cast<const char*>(data), size);
}

} // namespace conclave::fuzz
