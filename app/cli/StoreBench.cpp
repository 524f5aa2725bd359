// `conclave bench store`: the run store's figures — insert rate, the cost of
// recording a 10,000-wide fan-out, and the time to load a 100,000-span run.
#include "Commands.h"
#include "FanOutBreakdown.h"

#include "conclave/analysis/Quantile.h"
#include "conclave/bench/BenchTeams.h"
#include "conclave/store/RunStore.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <iomanip>
#include <ostream>
#include <unistd.h>

namespace conclave::cli {

namespace {

using SteadyClock = std::chrono::steady_clock;

double msSince(SteadyClock::time_point start)
{
    return std::chrono::duration<double, std::milli>(SteadyClock::now() - start).count();
}

// Feeds `spans` synthetic spans (start and finish events, as the engine sends
// them) through a recorder and returns the run id and the seconds until the
// run's end was durably committed.
std::pair<RunId, double> insertSpans(RunStore& store, const Team& team, size_t spans)
{
    std::string error;
    auto recorder = store.record(team, error);
    if (!recorder)
        throw std::runtime_error(error);
    const auto start = SteadyClock::now();
    recorder->runStarted("bench", 1, ClockKind::Real);
    Span s;
    s.model = "local-fast";
    for (size_t i = 1; i <= spans; ++i) {
        s.id = i;
        s.kind = i % 2 ? SpanKind::Node : SpanKind::Attempt;
        s.parent = i % 2 ? 0 : i - 1;
        s.node = NodeId("e" + std::to_string((i - 1) / 2 % 1000));
        s.name = s.kind == SpanKind::Node ? s.node.str() : "attempt 1";
        s.attempt = s.kind == SpanKind::Attempt ? 1 : 0;
        s.startUs = int64_t(i) * 10;
        s.endUs = -1;
        s.status = Status::Running;
        recorder->spanStarted(s);
        s.endUs = s.startUs + 200000;
        s.status = Status::Ok;
        s.tokensIn = 120;
        s.tokensOut = 40;
        s.costUsd = 0.00012;
        s.ttftUs = 5000;
        recorder->spanFinished(s);
    }
    RunResult result;
    result.status = RunStatus::Ok;
    result.wallUs = int64_t(spans) * 10 + 200000;
    recorder->runFinished(result);
    if (auto e = recorder->waitUntilStored(); !e.empty())
        throw std::runtime_error(e);
    return {recorder->id(), std::chrono::duration<double>(SteadyClock::now() - start).count()};
}

RunResult fanOutRun(Engine& engine, const Team& team, RunStore* store)
{
    std::unique_ptr<RunRecorder> recorder;
    std::vector<RunObserver*> observers;
    if (store) {
        std::string error;
        recorder = store->record(team, error);
        if (!recorder)
            throw std::runtime_error(error);
        observers.push_back(recorder.get());
    }
    auto started = engine.start(team, "bench", 1, observers);
    if (!started.run)
        throw std::runtime_error(started.error);
    const auto result = started.run->wait();
    if (result.status != RunStatus::Ok)
        throw std::runtime_error("fan-out run ended " + std::string(toString(result.status)));
    if (recorder) {
        if (auto e = recorder->waitUntilStored(); !e.empty())
            throw std::runtime_error(e);
        // Let the writer finish the checkpoint that follows a run's end, so it
        // does not run during the next measurement.
        store->flush();
    }
    return result;
}

} // namespace

int storeBench(const CliContext& context, Engine& engine, const BenchArgs& args)
{
    namespace fs = std::filesystem;
    const fs::path file =
        args.db ? fs::path(*args.db)
                : fs::temp_directory_path() / ("conclave-bench-" + std::to_string(::getpid()) + ".sqlite");
    const bool temporary = !args.db;
    auto opened = RunStore::open(file);
    if (!opened.store) {
        context.err << "conclave bench: " << opened.error << '\n';
        return kExitBadInput;
    }
    auto& store = *opened.store;
    const auto runs = std::max(args.runs, 3);
    auto& out = context.out;
    double load[3] = {0, 0, 0};
    getloadavg(load, 3);
    out << "run store (" << file.string() << "; load average " << std::fixed << std::setprecision(2) << load[0]
        << " on " << ::sysconf(_SC_NPROCESSORS_ONLN) << " cores at the start)\n";

    const auto tiny = BenchTeams::chain(1);
    // The writer's own throughput: measured at normal priority, since the
    // default low-priority writer yields to every other process on a busy machine.
    {
        RunStore::Options normal;
        normal.writer.lowPriority = false;
        const auto rateFile = file.string() + ".rate";
        auto rateStore = RunStore::open(rateFile, normal);
        if (!rateStore.store) {
            context.err << "conclave bench: " << rateStore.error << '\n';
            return kExitBadInput;
        }
        std::vector<double> rates;
        for (int r = 0; r < runs; ++r) {
            const auto [id, seconds] = insertSpans(*rateStore.store, tiny, 500000);
            rates.push_back(500000.0 / seconds);
        }
        out << "  sustained insert rate: " << std::fixed << std::setprecision(0) << Quantile::median(rates)
            << " spans/s (500,000 spans, start + finish events, until the durable commit; writer at normal "
               "priority; median of "
            << runs << "; target >= 200,000)\n";
        rateStore.store.reset();
        std::error_code ec;
        for (const char* suffix : {"", "-wal", "-shm"})
            fs::remove(rateFile + suffix, ec);
    }

    const auto n = std::min<size_t>(10000, args.maxN);
    const auto fan = BenchTeams::fanOut(n, 200);
    // Pairs of runs, the order alternating within each pair, so that a drift in
    // the machine's load weighs on both sides alike.
    // One pair first, not counted: the first runs pay for warming the
    // allocator, the page cache and the writer's chunk pool.
    const int pairs = std::max(runs, 9);
    fanOutRun(engine, fan, nullptr);
    fanOutRun(engine, fan, &store);
    std::vector<double> without, with, overheads;
    std::string breakdownWithout, breakdownWith;
    for (int r = 0; r < pairs; ++r) {
        RunResult plain, stored;
        if (r % 2 == 0) {
            plain = fanOutRun(engine, fan, nullptr);
            stored = fanOutRun(engine, fan, &store);
        } else {
            stored = fanOutRun(engine, fan, &store);
            plain = fanOutRun(engine, fan, nullptr);
        }
        without.push_back(double(plain.wallUs) / 1000.0);
        with.push_back(double(stored.wallUs) / 1000.0);
        overheads.push_back((double(stored.wallUs) / double(plain.wallUs) - 1.0) * 100.0);
        breakdownWithout = fanOutBreakdown(plain);
        breakdownWith = fanOutBreakdown(stored);
    }
    const double a = Quantile::median(without), b = Quantile::median(with);
    out << std::setprecision(1) << "  fan-out " << n << ": wall " << a << " ms without the store, " << b
        << " ms with it: " << std::showpos << (b - a) / a * 100.0 << std::noshowpos << " % (medians of " << pairs
        << " runs each); paired, the median difference is " << std::showpos << Quantile::median(overheads)
        << std::noshowpos << " % (target <= +5 %)\n";
    if (args.verbose) {
        out << "        pairs (without -> with, ms):";
        for (size_t i = 0; i < without.size(); ++i)
            out << ' ' << without[i] << "->" << with[i];
        out << '\n';
        out << "        last run without: " << breakdownWithout << '\n';
        out << "        last run with:    " << breakdownWith << '\n';
    }

    const auto [bigRun, seconds] = insertSpans(store, tiny, 100000);
    (void)seconds;
    std::vector<double> loads;
    size_t loaded = 0;
    for (int r = 0; r < std::max(runs, 5); ++r) {
        const auto start = SteadyClock::now();
        std::string error;
        auto reader = store.reader(error);
        auto run = reader ? reader->load(bigRun, false, error) : std::nullopt;
        if (!run)
            throw std::runtime_error(error);
        loads.push_back(msSince(start));
        loaded = run->spans.size();
    }
    out << std::setprecision(1) << "  load of a stored run of " << loaded
        << " spans (summary + all spans): " << Quantile::median(loads) << " ms (median of " << loads.size()
        << ", new connection each; target <= 300 ms)\n\n";
    out.unsetf(std::ios::fixed);
    opened.store.reset();
    if (temporary) {
        std::error_code ec;
        for (const char* suffix : {"", "-wal", "-shm"})
            fs::remove(file.string() + suffix, ec);
    }
    return kExitOk;
}

} // namespace conclave::cli
