// `conclave bench http`: full concurrency against every shape of OpenAI-compatible server.
#include "Commands.h"
#include "FixedText.h"

#include "conclave/bench/HttpShapeBench.h"

#include <algorithm>
#include <iomanip>
#include <ostream>

namespace conclave::cli {

namespace {

constexpr int kReplyMs = 100;
constexpr int kIdleMs = 100;
constexpr double kWaveTargetMs = 130;

} // namespace

int httpBench(const CliContext& context, const BenchArgs& args)
{
    (void)args;
    context.out << "http: a test server in each shape, " << kReplyMs
                << " ms replies; 4N streamed calls behind max_concurrency N, then " << kIdleMs
                << " ms idle and a second wave of N\n";
    context.out << std::left << std::setw(16) << "shape" << std::right << std::setw(4) << "N" << std::setw(13)
                << "peak server" << std::setw(13) << "peak client" << std::setw(10) << "calls/s" << std::setw(16)
                << "wave wall ms" << std::setw(9) << "failed" << std::setw(9) << "retries" << "  verdict\n";
    bool allMet = true;
    for (const auto shape : allServerShapes()) {
        for (const int n : {1, 8, 48}) {
            std::string error;
            const auto m = HttpShapeBench::measure(shape, n, kReplyMs, kIdleMs, error);
            if (!m) {
                context.err << "bench http: " << error << '\n';
                return kExitFailed;
            }
            const double worstWave = m->waveWallsMs.empty()
                                         ? 0
                                         : *std::max_element(m->waveWallsMs.begin(), m->waveWallsMs.end());
            const bool met = m->serverPeak == n && worstWave <= kWaveTargetMs && m->failed == 0 && m->retries == 0;
            allMet = allMet && met;
            context.out << std::left << std::setw(16) << toString(shape) << std::right << std::setw(4) << n
                        << std::setw(13) << m->serverPeak << std::setw(13) << m->clientPeak << std::setw(10)
                        << fixed(m->callsPerSecond, 0) << std::setw(16) << fixed(worstWave, 1) << std::setw(9)
                        << m->failed << std::setw(9) << m->retries << "  " << (met ? "ok" : "MISSED");
            if (!m->firstError.empty())
                context.out << " (" << m->firstError << ")";
            context.out << '\n';
        }
    }
    context.out << "(targets: peak server = N; the slowest of the four waves <= " << fixed(kWaveTargetMs, 0)
                << " ms from its first arrival to its last reply's end; no failed call and no retry, also in the "
                   "wave after the idle pause)\n\n";
    return allMet ? kExitOk : kExitFailed;
}

} // namespace conclave::cli
