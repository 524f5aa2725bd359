#pragma once

#include <cstdint>
#include <initializer_list>
#include <string_view>

namespace conclave {

// Stateless, reproducible random draws: the same keys always give the same
// numbers, on every machine and in every thread.
class DeterministicRandom {
public:
    static uint64_t hash(std::string_view text, uint64_t seed = 0x9E3779B97F4A7C15ull)
    {
        uint64_t h = 0xCBF29CE484222325ull ^ seed;
        for (const char c : text) {
            h ^= static_cast<unsigned char>(c);
            h *= 0x100000001B3ull;
        }
        return mix(h);
    }

    static uint64_t mix(uint64_t x)
    {
        x += 0x9E3779B97F4A7C15ull;
        x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
        x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
        return x ^ (x >> 31);
    }

    // A key from several parts, order-sensitive.
    static uint64_t key(std::initializer_list<std::string_view> parts, uint64_t seed)
    {
        uint64_t h = mix(seed);
        for (const auto part : parts)
            h = mix(h ^ hash(part, h));
        return h;
    }

    // Uniform in [0, 1).
    static double unit(uint64_t key) { return static_cast<double>(mix(key) >> 11) * 0x1.0p-53; }
    static double unit(uint64_t key, uint64_t stream) { return unit(mix(key ^ mix(stream))); }

    // A standard normal draw (Box-Muller over two unit draws).
    static double normal(uint64_t key, uint64_t stream);
};

} // namespace conclave
