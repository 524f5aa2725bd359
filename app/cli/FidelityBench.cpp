// `conclave bench fidelity`: measure → calibrate → predict → measure on
// ground-truth worlds that are not the simulator (docs/fidelity.md): six
// designs measured on each world, then `conclave fidelity`'s check on them,
// and issue 31's targets over every (world, design) pair.
#include "Commands.h"
#include "FixedText.h"

#include "conclave/bench/FidelityDesigns.h"
#include "conclave/bench/GroundTruthWorld.h"
#include "conclave/experiment/ExperimentRunner.h"
#include "conclave/experiment/FidelityCheck.h"
#include "conclave/experiment/FidelityTargets.h"
#include "conclave/experiment/StoredTrials.h"
#include "conclave/io/FileIo.h"
#include "conclave/session/Engine.h"
#include "conclave/store/RunStore.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>

namespace conclave::cli {

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

constexpr uint64_t kSeeds = 3;

double secondsSince(Clock::time_point start)
{
    return std::chrono::duration<double>(Clock::now() - start).count();
}

void removeDb(const fs::path& db)
{
    std::error_code ec;
    for (const char* suffix : {"", "-wal", "-shm"})
        fs::remove(db.string() + suffix, ec);
}

std::vector<fs::path> worldFiles(const CliContext& context, const BenchArgs& args)
{
    std::vector<fs::path> out;
    for (const auto& file : args.worlds)
        out.emplace_back(file);
    if (out.empty()) {
        std::error_code ec;
        for (const auto& entry : fs::directory_iterator(*context.resources / "bench" / "worlds", ec))
            if (entry.path().extension() == ".json")
                out.push_back(entry.path());
        std::sort(out.begin(), out.end());
    }
    return out;
}

// The six designs measured on the world, stored in `db`; the experiment's id, or "" with `error`.
std::string measure(const EngineResources& resources, const GroundTruthWorld& world,
                    std::shared_ptr<const GroundTruthWorld> shared, const fs::path& stem, const fs::path& db,
                    std::string& error)
{
    ExperimentSpec spec;
    spec.name = "bench fidelity on " + world.spec().name;
    for (auto& team : FidelityDesigns::forWorld(world.spec())) {
        auto name = team.name;
        spec.designs.push_back(makeDesign(std::move(name), "", std::move(team)));
    }
    const auto taskFile = stem.string() + ".tasks.jsonl";
    if (const auto failed = writeFileAtomically(taskFile, TaskSet::toJsonl(world.tasks().tasks()))) {
        error = taskFile + ": " + *failed;
        return {};
    }
    spec.tasksetName = taskFile;
    spec.tasksetPath = taskFile;
    spec.tasks = std::make_shared<const TaskSet>(world.tasks());
    for (uint64_t s = 1; s <= kSeeds; ++s)
        spec.seeds.push_back(s);
    spec.clock = ClockRequest::Virtual;
    auto withWorld = resources;
    withWorld.world = std::move(shared);
    Engine engine(std::move(withWorld));
    auto opened = RunStore::open(db);
    if (!opened.store) {
        error = opened.error;
        return {};
    }
    StoredTrials stored(*opened.store, StoredTrials::Keep::Runs);
    ExperimentRunner::Options options;
    options.concurrency = 64;
    ExperimentRunner runner(engine, stored, spec, options);
    const auto outcome = runner.run();
    opened.store->flush();
    if (!outcome.error.empty()) {
        error = outcome.error;
        return {};
    }
    return runner.id();
}

} // namespace

int fidelityBench(const CliContext& context, const BenchArgs& args)
{
    const auto fail = [&](const std::string& message) {
        context.err << "bench fidelity: " << message << '\n';
        return kExitFailed;
    };
    auto resources = context.engineResources();
    if (!resources || !context.resources)
        return kExitBadInput;
    const auto files = worldFiles(context, args);
    if (files.empty())
        return fail("no world files in " + (*context.resources / "bench" / "worlds").string());
    context.out << "fidelity: the local-moe SIMULATOR calibrated on ground-truth worlds (not the simulator), six "
                   "designs each, "
                << kSeeds << " seeds, "
                << (args.folds >= 2 ? std::to_string(args.folds) + "-fold cross-fit (each part predicted from a "
                                                                     "calibration on the others)"
                                    : std::string("half the tasks held out"))
                << "\n\n";
    std::vector<FidelityTargets::World> worlds;
    for (const auto& file : files) {
        auto loaded = GroundTruthWorld::load(file, *context.resources);
        if (!loaded.world)
            return fail(file.string() + ": " +
                        (loaded.problems.empty() ? std::string("cannot be read") : loaded.problems.front().message));
        auto world =
            args.worldSeed ? loaded.world->withSeed(loaded.world->seedUnder(*args.worldSeed)) : loaded.world;
        const auto label = world->spec().name + " (seed " + std::to_string(world->spec().seed) + ")";
        // --db keeps what was measured, one store per world (the world's name before the extension) with its
        // tasks beside it (.tasks.jsonl); else both are temporary.
        const fs::path stem =
            args.db ? fs::path(fs::path(*args.db).replace_extension("").string() + "-" + world->spec().name)
                    : fs::temp_directory_path() /
                          ("conclave-bench-fidelity-" + std::to_string(::getpid()) + "-" + world->spec().name);
        const fs::path db = stem.string() + ".sqlite";
        removeDb(db);
        const auto start = Clock::now();
        std::string error;
        const auto experiment = measure(*resources, *world, world, stem, db, error);
        if (experiment.empty())
            return fail(label + ": measuring: " + error);
        const double measured = secondsSince(start);
        std::optional<FidelityReport> report;
        {
            auto opened = RunStore::openForReading(db);
            if (!opened.store)
                return fail(opened.error);
            auto reader = opened.store->reader(error);
            if (!reader)
                return fail(error);
            Engine engine(*resources);
            engine.setStore(db);
            FidelityCheck::Options options;
            options.seed = args.worldSeed.value_or(0);
            options.folds = args.folds;
            options.replay = args.replay;
            report = FidelityCheck::run(engine, *reader, *context.resources, {experiment}, options, error);
        }
        if (!args.db) {
            removeDb(db);
            std::error_code ec;
            fs::remove(stem.string() + ".tasks.jsonl", ec);
        }
        if (!report)
            return fail(label + ": " + error);
        context.out << "world " << label << ": measured in " << fixed(measured, 1) << " s, checked in "
                    << fixed(secondsSince(start) - measured, 1) << " s"
                    << (args.db ? ", the measured runs kept in " + db.string() : std::string()) << "\n"
                    << report->table() << '\n';
        worlds.push_back({label, std::move(*report)});
    }
    const auto targets = FidelityTargets::of(worlds);
    context.out << "fidelity targets over " << targets.pairs << " (world, design) pairs on tasks the calibration did not read:\n"
                << targets.text() << '\n';
    return kExitOk;
}

} // namespace conclave::cli
