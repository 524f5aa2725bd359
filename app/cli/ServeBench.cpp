// `conclave bench serve`: a served team under load on 127.0.0.1 — 1,000
// concurrent streams of a simulated 200 ms call (and, for comparison, the
// same thousand as one burst), and non-streamed requests of a 1 ms call over
// 32 kept-alive connections — against issue 35's targets.
#include "Commands.h"
#include "FixedText.h"

#include "conclave/analysis/Quantile.h"
#include "conclave/bench/ServeLoad.h"
#include "conclave/io/TeamJson.h"
#include "conclave/serve/ChatServer.h"
#include "conclave/session/Engine.h"
#include "conclave/store/RunQueries.h"
#include "conclave/store/RunStore.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <optional>
#include <ostream>
#include <sstream>
#include <unistd.h>

namespace conclave::cli {

namespace {

// A one-expert team on one simulated model whose call takes exactly `callMs`
// (half to the first token, half streaming 20 tokens), on the real clock.
std::optional<Team> oneCallTeam(double callMs)
{
    const auto exact = [](double v) { return nlohmann::json{{"median", v}, {"p95", v}}; };
    nlohmann::json model{{"skills", {{"math", 0.9}, {"code", 0.9}, {"facts", 0.9}, {"writing", 0.9}, {"reasoning", 0.9}}},
                         {"ttft_ms", exact(callMs / 2)},
                         {"tokens_per_s", exact(20.0 / (callMs / 2) * 1000)},
                         {"output_tokens", exact(20)},
                         {"price_per_mtok", {{"input", 0.1}, {"output", 0.4}}},
                         {"context_tokens", 32000},
                         {"failure_rate", 0}};
    nlohmann::json doc{{"conclave", 1},
                       {"name", "bench-serve"},
                       {"backends", {{"local", {{"kind", "local-moe"}, {"seed", 1}, {"models", {{"bench", model}}}}}}},
                       {"defaults", {{"backend", "local"}, {"retries", 0}}},
                       {"nodes",
                        {{{"id", "in"}, {"kind", "input"}},
                         {{"id", "expert"}, {"kind", "expert"}, {"model", "bench"}},
                         {{"id", "out"}, {"kind", "output"}}}},
                       {"edges", {{{"from", "in"}, {"to", "expert"}}, {{"from", "expert"}, {"to", "out"}}}}};
    return teamFromJson(doc).team;
}

// Resident set size now, and its peak so far, in MB (/proc/self/status).
std::pair<double, double> residentMb()
{
    std::ifstream in("/proc/self/status");
    std::string line;
    double rss = 0;
    double peak = 0;
    while (std::getline(in, line)) {
        if (line.rfind("VmRSS:", 0) == 0)
            rss = std::stod(line.substr(6)) / 1024;
        if (line.rfind("VmHWM:", 0) == 0)
            peak = std::stod(line.substr(6)) / 1024;
    }
    return {rss, peak};
}

// CPU seconds of this process, and of its threads named `name`.
std::pair<double, double> cpuSeconds(const std::string& name)
{
    const double tick = double(::sysconf(_SC_CLK_TCK));
    const auto ticks = [&](const std::filesystem::path& stat) {
        std::ifstream in(stat);
        std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        const auto close = text.rfind(')');
        if (close == std::string::npos)
            return 0.0;
        std::istringstream fields(text.substr(close + 2));
        std::string field;
        double utime = 0;
        double stime = 0;
        for (int i = 3; fields >> field; ++i) { // field 3 is the state
            if (i == 14)
                utime = std::stod(field);
            if (i == 15) {
                stime = std::stod(field);
                break;
            }
        }
        return (utime + stime) / tick;
    };
    double named = 0;
    std::error_code ec;
    for (const auto& task : std::filesystem::directory_iterator("/proc/self/task", ec)) {
        std::ifstream comm(task.path() / "comm");
        std::string threadName;
        std::getline(comm, threadName);
        if (threadName == name)
            named += ticks(task.path() / "stat");
    }
    return {ticks("/proc/self/stat"), named};
}

struct Served {
    std::unique_ptr<RunStore> store;
    std::unique_ptr<ChatServer> server;
};

Served startServer(Engine& engine, const std::filesystem::path& db, const Team& team, int maxConcurrency,
                   std::string& error)
{
    Served s;
    auto opened = RunStore::open(db);
    if (!opened.store) {
        error = opened.error;
        return s;
    }
    s.store = std::move(opened.store);
    auto teams = ServedTeams::ofTeam(team, "bench", {}, engine);
    if (!teams.teams) {
        error = teams.error;
        return s;
    }
    ChatServerOptions options;
    options.port = 0;
    options.maxConcurrency = maxConcurrency;
    options.maxQueue = 1000;
    s.server = ChatServer::start(engine, *s.store, teams.teams, options, error);
    return s;
}

constexpr int kStreams = 1000;
constexpr double kStreamCallMs = 200;
constexpr int kSpreadMs = 190; // under one call, so the first stream is still open when the last starts

struct StreamFigures {
    int ok = 0;       // 200 and data: [DONE]
    int measured = 0; // of those, runs found in the store
    int peak = 0;     // most streams in flight at once, as the client saw them
    double wallMs = 0;
    double p50 = 0;   // added latency: request-to-last-byte minus runs.wall_us
    double p99 = 0;
    double growth = 0; // peak RSS during the load minus RSS before, MB
};

std::string describe(const StreamFigures& f)
{
    return "succeeded " + std::to_string(f.ok) + "/" + std::to_string(kStreams) + ", at most " +
           std::to_string(f.peak) + " in flight, in " + fixed(f.wallMs, 0) +
           " ms; added latency (client request-to-last-byte - runs.wall_us) p50 " + fixed(f.p50, 2) + " ms, p99 " +
           fixed(f.p99, 2) + " ms; RSS growth " + fixed(f.growth, 1) + " MB";
}

// kStreams streams of `team` on a server of its own, and their figures.
std::optional<StreamFigures> streamLoad(Engine& engine, const std::filesystem::path& db, const Team& team,
                                        const std::string& question, const std::vector<std::string>& headers,
                                        std::chrono::milliseconds spread, bool warm, std::string& error)
{
    auto s = startServer(engine, db, team, kStreams, error);
    if (!s.server)
        return std::nullopt;
    const auto before = residentMb();
    const std::string base = "http://127.0.0.1:" + std::to_string(s.server->port());
    ServeLoad::Load load;
    load.url = base + "/v1/chat/completions";
    load.body = question + R"(, "stream": true})";
    load.headers = headers;
    load.count = kStreams;
    load.concurrency = kStreams;
    load.spread = spread;
    if (warm)
        load.warmUpUrl = base + "/healthz";
    const auto result = ServeLoad::run(load);
    const auto after = residentMb();
    s.store->flush();
    auto reader = s.store->reader(error);
    if (!reader)
        return std::nullopt;
    StreamFigures f;
    std::vector<double> added;
    for (const auto& reply : result.replies) {
        if (reply.status != 200 || !reply.sawDone)
            continue;
        ++f.ok;
        if (const auto run = reader->load(RunId(reply.runId), false, error))
            added.push_back(reply.clientMs - double(run->summary.wallUs) / 1000);
    }
    std::sort(added.begin(), added.end());
    f.measured = int(added.size());
    f.peak = result.peakInFlight;
    f.wallMs = result.wallMs;
    f.p50 = Quantile::of(added, 0.5);
    f.p99 = Quantile::of(added, 0.99);
    f.growth = after.second - before.first;
    return f;
}

} // namespace

int serveBench(const CliContext& context, Engine& engine, const BenchArgs& args)
{
    (void)args;
    const auto dir = std::filesystem::temp_directory_path() / ("conclave-bench-serve-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    struct Cleanup {
        std::filesystem::path dir;
        ~Cleanup()
        {
            std::error_code ec;
            std::filesystem::remove_all(dir, ec);
        }
    } cleanup{dir};
    bool allMet = true;
    const std::string question =
        R"({"model": "bench", "messages": [{"role": "user", "content": "Calculate 323 + 460."}])";
    const std::vector<std::string> json{"Content-Type: application/json"};

    // 1. A thousand streams in flight at once: arrivals spread over a little
    // less than one call, on connections opened first (as a client's pool
    // keeps them), so every one overlaps every other. Then the same thousand
    // sent at once on new connections: what a burst costs, with no target.
    {
        std::string error;
        auto team = oneCallTeam(kStreamCallMs);
        const auto target = streamLoad(engine, dir / "streams.sqlite", *team, question, json,
                                       std::chrono::milliseconds(kSpreadMs), true, error);
        const auto burst = target ? streamLoad(engine, dir / "burst.sqlite", *team, question, json,
                                               std::chrono::milliseconds(0), false, error)
                                  : std::nullopt;
        if (!target || !burst) {
            context.err << "bench serve: " << error << '\n';
            return kExitFailed;
        }
        const bool met = target->ok == kStreams && target->measured == kStreams && target->peak == kStreams &&
                         target->p50 <= 2 && target->p99 <= 10 && target->growth <= 200;
        allMet = allMet && met;
        context.out << "serve: " << kStreams << " concurrent streams of a simulated " << fixed(kStreamCallMs, 0)
                    << " ms call (real clock, --max-concurrency " << kStreams << ", --io-threads 2)\n"
                    << "  arrivals spread over " << kSpreadMs << " ms on " << kStreams
                    << " open connections: " << describe(*target) << "  " << (met ? "ok" : "MISSED") << "\n"
                    << "  (targets: all succeed, all " << kStreams
                    << " in flight at once, p50 <= 2 ms, p99 <= 10 ms, RSS growth <= 200 MB)\n"
                    << "  all sent at once on new connections (a burst; no target): " << describe(*burst) << "\n";
    }

    // 2. Throughput of a 1 ms call over 32 kept-alive connections.
    {
        constexpr int kRequests = 8000;
        constexpr int kConnections = 32;
        std::string error;
        auto team = oneCallTeam(1);
        auto s = startServer(engine, dir / "throughput.sqlite", *team, 64, error);
        if (!s.server) {
            context.err << "bench serve: " << error << '\n';
            return kExitFailed;
        }
        const std::string url = "http://127.0.0.1:" + std::to_string(s.server->port()) + "/v1/chat/completions";
        const auto cpuBefore = cpuSeconds("conclave-store");
        ServeLoad::Load spec;
        spec.url = url;
        spec.body = question + "}";
        spec.headers = json;
        spec.count = kRequests;
        spec.concurrency = kConnections;
        spec.timeout = std::chrono::seconds(120);
        const auto load = ServeLoad::run(spec);
        s.store->flush();
        const auto cpuAfter = cpuSeconds("conclave-store");
        int ok = 0;
        for (const auto& reply : load.replies)
            ok += reply.status == 200 ? 1 : 0;
        RunFilter filter;
        filter.source = RunSource::Serve;
        auto reader = s.store->reader(error);
        const int64_t stored = reader ? reader->count(filter, error).value_or(-1) : -1;
        const double perSecond = kRequests / (load.wallMs / 1000);
        const double cpu = cpuAfter.first - cpuBefore.first;
        const double storeCpu = cpuAfter.second - cpuBefore.second;
        const bool met = ok == kRequests && stored == kRequests && perSecond >= 2000;
        allMet = allMet && met;
        context.out << "serve: " << kRequests << " non-streamed requests of a simulated 1 ms call over " << kConnections
                    << " kept-alive connections\n"
                    << "  " << fixed(perSecond, 0) << " requests/s; " << ok << " answered 200, "
                    << std::to_string(stored) << " runs stored; process CPU " << fixed(cpu, 2)
                    << " s, of which the store's writer " << fixed(storeCpu, 2) << " s ("
                    << fixed(cpu > 0 ? 100 * storeCpu / cpu : 0, 1) << " %)  " << (met ? "ok" : "MISSED") << "\n"
                    << "  (targets: >= 2000 requests/s on 2 cores, every request stored)\n\n";
    }
    return allMet ? kExitOk : kExitFailed;
}

} // namespace conclave::cli
