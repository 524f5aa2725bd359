#include "Commands.h"
#include "FanOutBreakdown.h"
#include "FixedText.h"

#include "conclave/analysis/Quantile.h"
#include "conclave/bench/BenchTeams.h"
#include "conclave/session/Engine.h"

#include <algorithm>
#include <chrono>
#include <fstream>
#include <iomanip>
#include <ostream>
#include <sstream>
#include <sys/resource.h>

namespace conclave::cli {

namespace {

int threadCount()
{
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line)) {
        if (line.rfind("Threads:", 0) == 0)
            return std::stoi(line.substr(8));
    }
    return -1;
}

double peakRssMb()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return double(usage.ru_maxrss) / 1024.0;
}

struct Measured {
    RunResult result;
    int threads = 0;
};

Measured runOnce(Engine& engine, const Team& team, std::string_view input)
{
    auto started = engine.start(team, std::string(input), 1);
    if (!started.run)
        throw std::runtime_error(started.error);
    Measured m;
    while (!started.run->waitFor(std::chrono::milliseconds(20)))
        m.threads = std::max(m.threads, threadCount());
    m.threads = std::max(m.threads, threadCount());
    m.result = started.run->wait();
    return m;
}

void fanOut(const CliContext& context, Engine& engine, const BenchArgs& args)
{
    context.out << "fan-out: input -> router(all) -> N experts (200 ms fixed) -> concat -> output\n";
    context.out << std::setw(7) << "N" << std::setw(12) << "wall ms" << std::setw(12) << "crit ms" << std::setw(13)
                << "wall/crit" << std::setw(10) << "threads" << std::setw(14) << "peak RSS MB" << '\n';
    for (const size_t n : {size_t(10), size_t(100), size_t(1000), size_t(10000)}) {
        if (n > args.maxN)
            break;
        const auto team = BenchTeams::fanOut(n, 200);
        std::vector<double> ratios, walls, crits;
        int threads = 0;
        std::string breakdown;
        for (int r = 0; r < args.runs; ++r) {
            const auto m = runOnce(engine, team, "bench");
            if (m.result.status != RunStatus::Ok)
                throw std::runtime_error("fan-out run ended " + std::string(toString(m.result.status)));
            walls.push_back(double(m.result.wallUs) / 1000.0);
            crits.push_back(double(m.result.criticalPath.lengthUs) / 1000.0);
            ratios.push_back(double(m.result.wallUs) / double(std::max<int64_t>(1, m.result.criticalPath.lengthUs)));
            threads = std::max(threads, m.threads);
            breakdown = fanOutBreakdown(m.result);
        }
        context.out << std::setw(7) << n << std::setw(12) << fixed(Quantile::median(walls), 1) << std::setw(12)
                    << fixed(Quantile::median(crits), 1) << std::setw(13) << fixed(Quantile::median(ratios), 3)
                    << std::setw(10) << threads << std::setw(14) << fixed(peakRssMb(), 1) << '\n';
        if (args.verbose)
            context.out << "        last run: " << breakdown << '\n';
    }
    context.out << "(medians of " << args.runs << " runs; targets: wall/crit <= 1.10 up to N = 1,000, <= 1.50 at "
                << "N = 10,000; peak RSS <= 300 MB; threads independent of N)\n\n";
}

void chain(const CliContext& context, Engine& engine, const BenchArgs& args)
{
    const size_t n = std::min<size_t>(10000, args.maxN);
    const auto team = BenchTeams::chain(n);
    std::vector<double> perNode;
    for (int r = 0; r < std::max(args.runs, 3); ++r) {
        const auto m = runOnce(engine, team, "bench");
        if (m.result.status != RunStatus::Ok)
            throw std::runtime_error("chain run ended " + std::string(toString(m.result.status)));
        perNode.push_back(double(m.result.wallUs) / double(n + 2));
    }
    std::sort(perNode.begin(), perNode.end());
    context.out << "chain of " << n << " zero-latency experts: scheduler overhead per node, median "
                << fixed(Quantile::median(perNode), 2) << " us (min " << fixed(perNode.front(), 2) << ", max "
                << fixed(perNode.back(), 2) << ", " << perNode.size() << " runs; target <= 20 us)\n\n";
}

void early(const CliContext& context, Engine& engine)
{
    const auto team = BenchTeams::earlyTermination(5, 4, 100, 2000);
    const auto m = runOnce(engine, team, "Calculate 323 + 460.");
    int cancelled = 0;
    std::vector<int64_t> fastEnds;
    int64_t voteStart = 0;
    for (const auto& s : m.result.spans) {
        if (s.kind != SpanKind::Node)
            continue;
        if (s.node.str().starts_with("slow") && s.status == Status::Cancelled)
            ++cancelled;
        if (s.node.str().starts_with("fast"))
            fastEnds.push_back(s.endUs);
        if (s.node.str() == "vote")
            voteStart = s.startUs;
    }
    std::sort(fastEnds.begin(), fastEnds.end());
    context.out << "early termination: 9 experts (5 at 100 ms agreeing, 4 at 2000 ms), majority with quorum 5\n"
                << "  wall " << fixed(double(m.result.wallUs) / 1000.0, 1) << " ms; 5th-fastest expert ended at "
                << fixed(fastEnds.size() >= 5 ? double(fastEnds[4]) / 1000.0 : 0, 1) << " ms; vote started at "
                << fixed(double(voteStart) / 1000.0, 1) << " ms; answer " << m.result.output.answer << "; " << cancelled
                << " of 4 slow calls cancelled; run " << toString(m.result.status) << "\n\n";
}

} // namespace

int runBench(const CliContext& context, const BenchArgs& args)
{
    auto resources = context.engineResources();
    if (!resources)
        return kExitBadInput;
    Engine engine(std::move(*resources));
    context.out << "conclave bench: " << engine.threads() << " worker threads, " << threadCount()
                << " threads in the process before any run\n\n";
    try {
        if (args.which == "all" || args.which == "fanout")
            fanOut(context, engine, args);
        if (args.which == "all" || args.which == "chain")
            chain(context, engine, args);
        if (args.which == "all" || args.which == "early")
            early(context, engine);
        if (args.which == "all" || args.which == "clock") {
            if (const int code = clockBench(context, engine, args); code != kExitOk)
                return code;
        }
        if (args.which == "all" || args.which == "store") {
            if (const int code = storeBench(context, engine, args); code != kExitOk)
                return code;
        }
        if (args.which == "all" || args.which == "sim") {
            if (const int code = simBench(context, engine, args); code != kExitOk)
                return code;
        }
        if (args.which == "http") { // real time: only when asked for
            if (const int code = httpBench(context, args); code != kExitOk)
                return code;
        }
        if (args.which == "serve") { // real time: only when asked for
            if (const int code = serveBench(context, engine, args); code != kExitOk)
                return code;
        }
        if (args.which == "calibrate") { // long: only when asked for
            if (const int code = calibrateBench(context, engine, args); code != kExitOk)
                return code;
        }
        if (args.which == "routing") { // only when asked for
            if (const int code = routingQualityBench(context, args); code != kExitOk)
                return code;
        }
        if (args.which == "routing" || args.which == "routing-speed") {
            if (const int code = routingSpeedBench(context, engine, args); code != kExitOk)
                return code;
        }
        if (args.which == "whatif") { // only when asked for
            if (const int code = whatIfBench(context, engine, args); code != kExitOk)
                return code;
        }
        if (args.which == "fidelity") { // long: only when asked for
            if (const int code = fidelityBench(context, args); code != kExitOk)
                return code;
        }
        if (args.which == "search") { // long: only when asked for
            if (const int code = searchBench(context, engine, args); code != kExitOk)
                return code;
        }
        if (args.which == "search-worlds") { // the search's part on ground-truth worlds alone
            if (const int code = searchWorldBench(context, engine.resources(), args); code != kExitOk)
                return code;
        }
        if (args.which == "eval") { // long: only when asked for
            if (const int code = evalBench(context, engine, args); code != kExitOk)
                return code;
        }
    } catch (const std::exception& e) {
        context.err << "conclave bench: " << e.what() << '\n';
        return kExitFailed;
    }
    return kExitOk;
}

} // namespace conclave::cli
