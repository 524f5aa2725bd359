#include "conclave/bench/HttpShapeBench.h"

#include "conclave/http/EndpointLoad.h"

#include <algorithm>
#include <thread>

namespace conclave {

std::optional<ShapeMeasurement> HttpShapeBench::measure(ServerShape shape, int n, int replyMs, int idleMs,
                                                        std::string& error)
{
    ChatTestServerOptions options;
    options.shape = shape;
    options.replyMs = replyMs;
    auto server = ChatTestServer::start(options, error);
    if (!server)
        return std::nullopt;
    auto settings = std::make_shared<OpenAiSettings>();
    settings->name = "bench";
    settings->baseUrl = server->baseUrl();
    settings->stream = true;
    auto limits = std::make_shared<EndpointLimits>(n, std::nullopt);
    // A bound far past any healthy wave, so a client that serialises ends too.
    const auto timeout = std::chrono::milliseconds(int64_t(replyMs) * 8 * n + 10000);

    HttpMultiLoop loop;
    ShapeMeasurement m;
    m.shape = shape;
    m.n = n;
    const auto first = EndpointLoad::run(loop, settings, limits, "bench", 4 * n, timeout);
    const auto seen = server->stats();
    m.waveWallsMs = ChatTestServer::waveWallsMs(seen.answered, size_t(n));
    m.callsPerSecond = first.wallMs > 0 ? 1000.0 * first.calls / first.wallMs : 0;
    m.serverPeak = seen.peakInFlight;
    m.clientPeak = first.peakInFlight;

    std::this_thread::sleep_for(std::chrono::milliseconds(idleMs));
    server->reset();
    const auto second = EndpointLoad::run(loop, settings, limits, "bench", n, timeout);
    const auto seenAgain = server->stats();
    m.serverPeak = std::max(m.serverPeak, seenAgain.peakInFlight);
    m.clientPeak = std::max(m.clientPeak, second.peakInFlight);
    m.calls = first.calls + second.calls;
    m.failed = first.failed + second.failed;
    m.retries = seen.requests + seenAgain.requests - m.calls;
    m.firstError = first.firstError.empty() ? second.firstError : first.firstError;
    return m;
}

} // namespace conclave
