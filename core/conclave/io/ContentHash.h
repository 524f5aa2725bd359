#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

namespace conclave {

// A short, stable fingerprint of content: 64-bit FNV-1a, finished with a
// SplitMix64 step, as 16 lowercase hex digits. The same bytes give the same
// hash on every machine; it tells content apart, it is not cryptographic.
inline std::string contentHash(std::string_view text)
{
    uint64_t h = 0xCBF29CE484222325ull;
    for (const char c : text) {
        h ^= static_cast<unsigned char>(c);
        h *= 0x100000001B3ull;
    }
    h += 0x9E3779B97F4A7C15ull;
    h = (h ^ (h >> 30)) * 0xBF58476D1CE4E5B9ull;
    h = (h ^ (h >> 27)) * 0x94D049BB133111EBull;
    h ^= h >> 31;
    char out[17];
    std::snprintf(out, sizeof out, "%016llx", static_cast<unsigned long long>(h));
    return out;
}

} // namespace conclave
