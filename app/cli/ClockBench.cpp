// `conclave bench clock`: what the virtual clock costs — a 10,000-wide
// fan-out, one triage run in process, and the throughput of many small runs
// sharing one engine, with and without the run store.
#include "Commands.h"
#include "FixedText.h"

#include "conclave/analysis/Quantile.h"
#include "conclave/bench/BenchTeams.h"
#include "conclave/io/TeamFile.h"
#include "conclave/store/RunStore.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <iomanip>
#include <mutex>
#include <ostream>
#include <sstream>
#include <sys/resource.h>
#include <unistd.h>

namespace conclave::cli {

namespace {

using SteadyClock = std::chrono::steady_clock;

double msSince(SteadyClock::time_point start)
{
    return std::chrono::duration<double, std::milli>(SteadyClock::now() - start).count();
}

double peakRssMb()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return double(usage.ru_maxrss) / 1024.0;
}

Engine::StartOptions onVirtualClock(std::vector<RunObserver*> observers = {})
{
    return Engine::StartOptions{1, std::move(observers), ClockRequest::Virtual, {}, {}};
}

RunResult runVirtual(Engine& engine, const Team& team, const std::string& input)
{
    auto started = engine.start(team, input, onVirtualClock());
    if (!started.run)
        throw std::runtime_error(started.error);
    return started.run->wait();
}

Team example(const CliContext& context, const std::string& name)
{
    const auto path = *context.resources / "examples" / name;
    auto loaded = loadTeamFile(path);
    if (!loaded.team)
        throw std::runtime_error("cannot load " + path.string());
    return std::move(*loaded.team);
}

// Counts runs as they finish, so a caller can keep a fixed number in flight.
class FinishedRuns : public RunObserver {
public:
    void runFinished(const RunResult& result) override
    {
        std::lock_guard lock(m_mutex);
        ++m_finished;
        m_cpuUs += result.cpuUs;
        m_ok += result.status == RunStatus::Ok || result.status == RunStatus::Partial ? 1 : 0;
        m_changed.notify_all();
    }
    void waitUntil(size_t finished)
    {
        std::unique_lock lock(m_mutex);
        m_changed.wait(lock, [&] { return m_finished >= finished; });
    }
    int64_t cpuUs() const
    {
        std::lock_guard lock(m_mutex);
        return m_cpuUs;
    }
    size_t ok() const
    {
        std::lock_guard lock(m_mutex);
        return m_ok;
    }

private:
    mutable std::mutex m_mutex;
    std::condition_variable m_changed;
    size_t m_finished = 0;
    size_t m_ok = 0;
    int64_t m_cpuUs = 0;
};

struct Throughput {
    double runsPerSecond = 0;
    double cpuUsPerRun = 0;
    double startUs = 0; // real time per Engine::start on the caller's thread
    size_t ok = 0;
};

// `runs` runs of `team`, at most `inFlight` at once, each with its own seed.
Throughput throughput(Engine& engine, const Team& team, const std::string& input, size_t runs, size_t inFlight,
                      RunStore* store)
{
    // Checked and indexed once, as an experiment does for each design.
    const auto prepared = engine.prepare(team);
    if (!prepared.team)
        throw std::runtime_error(prepared.error);
    FinishedRuns finished;
    double startMs = 0;
    std::vector<std::unique_ptr<RunRecorder>> recorders(store ? runs : 0);
    const auto start = SteadyClock::now();
    for (size_t i = 0; i < runs; ++i) {
        if (i >= inFlight)
            finished.waitUntil(i - inFlight + 1);
        std::vector<RunObserver*> observers{&finished};
        if (store) {
            std::string error;
            recorders[i] = store->record(team, error);
            if (!recorders[i])
                throw std::runtime_error(error);
            observers.push_back(recorders[i].get());
        }
        auto options = onVirtualClock(std::move(observers));
        options.seed = i + 1;
        const auto begin = SteadyClock::now();
        if (!engine.start(*prepared.team, input, std::move(options)).run)
            throw std::runtime_error("the team does not start");
        startMs += msSince(begin);
    }
    finished.waitUntil(runs);
    if (store) {
        for (auto& r : recorders) {
            if (auto error = r->waitUntilStored(); !error.empty())
                throw std::runtime_error(error);
        }
    }
    const double seconds = msSince(start) / 1000.0;
    return {double(runs) / seconds, double(finished.cpuUs()) / double(runs), startMs * 1000.0 / double(runs),
            finished.ok()};
}

} // namespace

int clockBench(const CliContext& context, Engine& engine, const BenchArgs& args)
{
    auto& out = context.out;
    const int runs = std::max(args.runs, 3);
    out << "virtual clock (simulated time; the real time below is what the simulation cost)\n";

    // 1. A wide fan-out: 10,000 calls of 200 ms simulated. The team is
    // checked and planned once (as an experiment does), and that is timed apart.
    {
        const size_t n = std::min<size_t>(10000, args.maxN);
        const auto team = BenchTeams::fanOut(n, 200);
        std::vector<double> real, simulated, preparing;
        for (int r = 0; r < runs; ++r) {
            auto begin = SteadyClock::now();
            const auto prepared = engine.prepare(team);
            if (!prepared.team)
                throw std::runtime_error(prepared.error);
            preparing.push_back(msSince(begin));
            begin = SteadyClock::now();
            auto started = engine.start(*prepared.team, "bench", onVirtualClock());
            if (!started.run)
                throw std::runtime_error(started.error);
            const auto result = started.run->wait();
            real.push_back(msSince(begin));
            simulated.push_back(double(result.wallUs) / 1000.0);
            if (result.status != RunStatus::Ok)
                throw std::runtime_error("fan-out run ended " + std::string(toString(result.status)));
        }
        out << "  fan-out of " << n << " experts x 200 ms: real " << fixed(Quantile::median(real), 1)
            << " ms (median of " << runs << "; min " << fixed(*std::min_element(real.begin(), real.end()), 1)
            << ", max " << fixed(*std::max_element(real.begin(), real.end()), 1) << "), simulated wall "
            << fixed(Quantile::median(simulated), 1) << " ms, peak RSS " << fixed(peakRssMb(), 1)
            << " MB  (target: real <= 150 ms, RSS <= 150 MB)\n"
            << "    checking and planning the " << team.nodes.size()
            << "-node team before it, once: " << fixed(Quantile::median(preparing), 1) << " ms\n";
    }

    // 2. One triage run in process: no process start, no store.
    {
        const auto team = example(context, "triage.team.json");
        const std::string input = "Calculate 323 + 460. And what is the capital city of France?";
        for (int i = 0; i < 20; ++i)
            runVirtual(engine, team, input); // warm: page faults and first allocations are not the clock's
        std::vector<double> real, cpu;
        double simulated = 0;
        for (int r = 0; r < std::max(runs, 200); ++r) {
            const auto start = SteadyClock::now();
            const auto result = runVirtual(engine, team, input);
            real.push_back(msSince(start));
            cpu.push_back(double(result.cpuUs) / 1000.0);
            simulated = double(result.wallUs) / 1000.0;
        }
        std::sort(real.begin(), real.end());
        out << "  triage, one task, in process: real " << fixed(Quantile::median(real), 3) << " ms (median of "
            << real.size() << "; p95 " << fixed(Quantile::of(real, 0.95), 3) << "), CPU "
            << fixed(Quantile::median(cpu), 3) << " ms, simulated wall " << fixed(simulated, 1)
            << " ms  (target: real <= 2 ms)\n";
    }

    // 3. Many small runs through one engine at once.
    {
        const auto team = example(context, "keyword-vote.team.json");
        const std::string input = "Calculate 323 + 460.";
        // --max-n below the default shrinks this part too (the tests' quick runs).
        const size_t count = args.maxN < 10000 ? std::max<size_t>(args.maxN, 100) : 20000;
        const size_t inFlight = 256;
        const size_t nodes = team.nodes.size();
        throughput(engine, team, input, count / 10, inFlight, nullptr); // warm
        std::vector<double> rates, cpuPerRun, startUs;
        for (int r = 0; r < runs; ++r) {
            const auto t = throughput(engine, team, input, count, inFlight, nullptr);
            rates.push_back(t.runsPerSecond);
            cpuPerRun.push_back(t.cpuUsPerRun);
            startUs.push_back(t.startUs);
        }
        const double cpu = Quantile::median(cpuPerRun);
        out << "  keyword-vote, " << count << " runs, " << inFlight << " in flight, " << engine.threads()
            << " workers: " << fixed(Quantile::median(rates), 0) << " runs/s (median of " << runs << "; min "
            << fixed(*std::min_element(rates.begin(), rates.end()), 0) << "), CPU " << fixed(cpu, 1)
            << " us per run, " << fixed(cpu / double(nodes), 2) << " us per node (" << nodes
            << " nodes)  (target: >= 10,000 runs/s)\n"
            << "    the team prepared once (validated, planned); starting a run on the caller's thread: "
            << fixed(Quantile::median(startUs), 1) << " us per run\n";

        namespace fs = std::filesystem;
        const auto file = fs::temp_directory_path() / ("conclave-bench-clock-" + std::to_string(::getpid()) + ".sqlite");
        auto opened = RunStore::open(file);
        if (!opened.store)
            throw std::runtime_error(opened.error);
        const size_t stored = std::min<size_t>(count, 5000);
        std::vector<double> storedRates;
        for (int r = 0; r < runs; ++r)
            storedRates.push_back(throughput(engine, team, input, stored, inFlight, opened.store.get()).runsPerSecond);
        opened.store.reset();
        for (const char* suffix : {"", "-wal", "-shm"})
            fs::remove(file.string() + suffix);
        out << "  the same with the run store: " << fixed(Quantile::median(storedRates), 0) << " runs/s ("
            << stored << " runs each, median of " << runs << ", every run committed)\n";
    }
    out << '\n';
    return kExitOk;
}

} // namespace conclave::cli
