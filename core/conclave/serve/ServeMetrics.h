#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <utility>

namespace conclave {

// What GET /metrics shows, in Prometheus' text exposition format (version
// 0.0.4), written here directly: requests by team and status, requests in
// flight and queued, run and time-to-first-token histograms, tokens and cost
// by team. Thread-safe.
class ServeMetrics {
public:
    static constexpr std::array<double, 14> kBuckets{0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5,
                                                     1, 2.5, 5, 10, 30, 60, 120};

    // One answered request (`team` empty when none was chosen).
    void request(const std::string& team, int status);
    void inFlight(int delta);
    void queued(int delta);
    // One finished run of `team`.
    void run(const std::string& team, double seconds, int64_t tokensIn, int64_t tokensOut, double costUsd);
    // The first byte of an answer's content, `seconds` after its request arrived.
    void firstToken(const std::string& team, double seconds);

    std::string text() const;

private:
    struct Histogram {
        std::array<uint64_t, kBuckets.size()> counts{}; // per bucket, not cumulative
        uint64_t count = 0;
        double sum = 0;
        void observe(double x);
    };
    struct TeamFigures {
        Histogram runSeconds;
        Histogram ttftSeconds;
        int64_t tokensIn = 0;
        int64_t tokensOut = 0;
        double costUsd = 0;
    };

    mutable std::mutex m_mutex;
    std::map<std::pair<std::string, int>, uint64_t> m_requests;
    std::map<std::string, TeamFigures> m_teams;
    int64_t m_inFlight = 0;
    int64_t m_queued = 0;
};

} // namespace conclave
