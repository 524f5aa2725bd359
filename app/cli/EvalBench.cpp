// `conclave bench eval`: an experiment's throughput on the simulated clock, and against a test endpoint.
#include "Commands.h"
#include "FixedText.h"

#include "conclave/analysis/Quantile.h"
#include "conclave/bench/ChatTestServer.h"
#include "conclave/experiment/ExperimentRunner.h"
#include "conclave/experiment/StoredTrials.h"
#include "conclave/experiment/TrialSummaries.h"
#include "conclave/io/TeamFile.h"
#include "conclave/io/TeamJson.h"
#include "conclave/store/RunStore.h"

#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <iomanip>
#include <sstream>

namespace conclave::cli {

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start)
{
    return std::chrono::duration<double>(Clock::now() - start).count();
}

fs::path temporaryDb(const std::string& what)
{
    return fs::temp_directory_path() / ("conclave-bench-eval-" + what + "-" + std::to_string(::getpid()) + ".sqlite");
}

void removeDb(const fs::path& db)
{
    std::error_code ec;
    for (const char* suffix : {"", "-wal", "-shm"})
        fs::remove(db.string() + suffix, ec);
}

struct Measured {
    double wallS = 0;
    ExperimentRunner::Outcome outcome;
    std::string error;
};

// Where a bench's trials go: every run stored, trial rows only, or memory.
enum class Kept { Runs, Rows, Memory };

Measured runOnce(Engine& engine, const ExperimentSpec& spec, int concurrency, const fs::path& db, Kept kept = Kept::Runs)
{
    Measured m;
    removeDb(db);
    auto opened = RunStore::open(db);
    if (!opened.store) {
        m.error = opened.error;
        return m;
    }
    ExperimentRunner::Options options;
    options.concurrency = concurrency;
    StoredTrials stored(*opened.store, kept == Kept::Rows ? StoredTrials::Keep::Rows : StoredTrials::Keep::Runs);
    TrialSummaries summaries;
    TrialSink& sink = kept == Kept::Memory ? static_cast<TrialSink&>(summaries) : stored;
    ExperimentRunner runner(engine, sink, spec, options);
    const auto start = Clock::now();
    m.outcome = runner.run();
    opened.store->flush();
    m.wallS = secondsSince(start);
    m.error = m.outcome.error;
    opened.store.reset();
    removeDb(db);
    return m;
}

// The same runs through the engine alone: no store, no scoring.
double engineOnce(Engine& engine, const ExperimentSpec& spec, int concurrency)
{
    std::vector<std::shared_ptr<const PreparedTeam>> prepared;
    for (const auto& design : spec.designs)
        prepared.push_back(engine.prepare(design.team).team);
    const auto trials = planTrials(spec);
    const auto start = Clock::now();
    std::deque<std::shared_ptr<Run>> going;
    for (const auto& trial : trials) {
        if (int(going.size()) >= concurrency) {
            going.front()->wait();
            going.pop_front();
        }
        auto started = engine.start(*prepared[size_t(trial.design)], spec.tasks->tasks()[trial.task].prompt,
                                    Engine::StartOptions{trial.seed, {}, ClockRequest::Virtual, {}, spec.tasks});
        if (started.run)
            going.push_back(std::move(started.run));
    }
    for (auto& run : going)
        run->wait();
    return secondsSince(start);
}

int simulated(const CliContext& context, Engine& engine, const BenchArgs& args)
{
    const auto examples = *context.resources / "examples";
    std::vector<std::pair<std::string, std::string>> named;
    std::vector<Team> teams;
    std::vector<std::string> files;
    for (const char* name : {"cascade", "debate", "keyword-vote", "mixture-of-agents", "review-board", "triage"}) {
        const auto file = (examples / (std::string(name) + ".team.json")).string();
        auto loaded = loadTeamFile(file);
        if (!loaded.team) {
            context.err << "bench eval: " << file << " does not load\n";
            return kExitFailed;
        }
        named.emplace_back(loaded.team->name, file);
        teams.push_back(std::move(*loaded.team));
        files.push_back(file);
    }
    auto tasks = TaskSet::loadFolder(*context.resources / "tasksets");
    if (!tasks.tasks) {
        context.err << "bench eval: the bundled task sets do not load\n";
        return kExitFailed;
    }
    ExperimentSpec spec;
    spec.name = "bench eval";
    const auto names = nameDesigns(named);
    for (size_t i = 0; i < teams.size(); ++i)
        spec.designs.push_back(makeDesign(names[i], files[i], std::move(teams[i])));
    spec.tasksetName = "bundled";
    spec.tasks = std::make_shared<const TaskSet>(std::move(*tasks.tasks));
    spec.seeds = {1, 2, 3};
    const size_t trials = planTrials(spec).size();
    const int concurrency = 64;
    context.out << "eval, simulated clock: " << spec.designs.size() << " example teams x " << spec.tasks->tasks().size()
                << " bundled tasks x 3 seeds = " << trials << " trials, every run stored, concurrency " << concurrency
                << ", " << args.runs << " runs\n";

    std::vector<double> walls;
    std::vector<double> rowWalls;
    std::vector<double> memoryWalls;
    std::vector<double> engineWalls;
    for (int r = 0; r < args.runs; ++r) {
        for (const auto kept : {Kept::Runs, Kept::Rows, Kept::Memory}) {
            const auto m = runOnce(engine, spec, concurrency, temporaryDb("sim"), kept);
            if (!m.error.empty()) {
                context.err << "bench eval: " << m.error << '\n';
                return kExitFailed;
            }
            if (m.outcome.ran != int64_t(trials)) {
                context.err << "bench eval: " << m.outcome.ran << " of " << trials << " trials ran\n";
                return kExitFailed;
            }
            (kept == Kept::Runs ? walls : kept == Kept::Rows ? rowWalls : memoryWalls).push_back(m.wallS);
        }
        engineWalls.push_back(engineOnce(engine, spec, concurrency));
    }
    const double wall = Quantile::median(walls);
    const double engineOnly = Quantile::median(engineWalls);
    const auto line = [&](const char* what, double seconds) {
        context.out << "  " << what << ": " << fixed(seconds, 2) << " s median, " << fixed(double(trials) / seconds, 0)
                    << " trials/s, " << fixed(wall / seconds, 1) << "x every run stored\n";
    };
    context.out << "  every run stored: " << fixed(wall, 2) << " s median (target <= 20 s), "
                << fixed(double(trials) / wall, 0) << " trials/s\n";
    line("trial rows only (--store summaries)", Quantile::median(rowWalls));
    line("in memory (TrialSummaries)", Quantile::median(memoryWalls));
    line("the engine alone, no scoring", engineOnly);
    context.out << "  the store's share of every run stored: "
                << fixed(100.0 * std::max(0.0, wall - engineOnly) / wall, 0) << " %\n\n";
    return kExitOk;
}

int endpoint(const CliContext& context, Engine& engine, const BenchArgs& args)
{
    constexpr int kSlots = 8;
    constexpr int kReplyMs = 200;
    constexpr int kConcurrency = 32;
    // The hardest shape for a client: headers only with the first token, and
    // every stream ended by closing its connection.
    ChatTestServerOptions options;
    options.shape = ServerShape::LateHeaders;
    options.replyMs = kReplyMs;
    options.slotCount = kSlots;
    std::string error;
    auto server = ChatTestServer::start(options, error);
    if (!server) {
        context.err << "bench eval: the test server: " << error << '\n';
        return kExitFailed;
    }
    ::setenv("CONCLAVE_BENCH_KEY", "bench", 1);
    const std::string teamJson = R"({
  "conclave": 1,
  "name": "endpoint bench",
  "backends": {"remote": {"kind": "openai", "base_url": "http://127.0.0.1:)" +
                                 std::to_string(server->port()) + R"(/v1", "api_key_env": "CONCLAVE_BENCH_KEY",
                          "max_concurrency": 8, "stream": true, "prices": {"bench": {"input": 1, "output": 2}}}},
  "defaults": {"backend": "remote", "timeout_ms": 30000, "retries": 0},
  "nodes": [{"id": "in", "kind": "input"}, {"id": "e", "kind": "expert", "model": "bench"},
            {"id": "out", "kind": "output"}],
  "edges": [{"from": "in", "to": "e"}, {"from": "e", "to": "out"}]
})";
    auto loaded = teamFromJsonText(teamJson);
    auto tasks = TaskSet::load(*context.resources / "tasksets" / "math.jsonl");
    if (!loaded.team || !tasks.tasks) {
        context.err << "bench eval: the endpoint team or the math tasks do not load\n";
        return kExitFailed;
    }
    ExperimentSpec spec;
    spec.name = "bench eval endpoint";
    spec.designs.push_back(makeDesign("endpoint", "", std::move(*loaded.team)));
    spec.tasksetName = "math";
    spec.tasks = std::make_shared<const TaskSet>(std::move(*tasks.tasks));
    spec.seeds = {1, 2, 3};
    const size_t trials = planTrials(spec).size();
    const double allowed = 1000.0 / kReplyMs * kSlots;
    context.out << "eval, real clock against a test server (" << toString(options.shape) << " streams, " << kSlots
                << " slots, " << kReplyMs
                << " ms a reply: at most " << fixed(allowed, 0) << " calls/s): " << trials
                << " trials of one call, --concurrency " << kConcurrency << ", max_concurrency 8\n";
    const auto m = runOnce(engine, spec, kConcurrency, temporaryDb("endpoint"));
    if (!m.error.empty()) {
        context.err << "bench eval: " << m.error << '\n';
        return kExitFailed;
    }
    const auto seen = server->stats();
    const double rate = double(seen.requests) / m.wallS;
    context.out << "  " << seen.requests << " calls in " << fixed(m.wallS, 2) << " s: " << fixed(rate, 1)
                << " calls/s, " << fixed(100.0 * rate / allowed, 1) << " % of the slots' " << fixed(allowed, 0)
                << " (target >= 90 %); at most " << seen.peakInFlight << " requests in flight (limit 8)\n\n";
    (void)args;
    return seen.peakInFlight <= kSlots ? kExitOk : kExitFailed;
}

} // namespace

int evalBench(const CliContext& context, Engine& engine, const BenchArgs& args)
{
    if (const int code = simulated(context, engine, args); code != kExitOk)
        return code;
    return endpoint(context, engine, args);
}

} // namespace conclave::cli
