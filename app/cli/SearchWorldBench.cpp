// `conclave bench search`, its last part: on ground-truth worlds that are not the simulator, the simulator
// is calibrated on the search part of each world's tasks, a design is searched on it, and the front it finds
// is measured in the world on the test part — how much of it is still a front there.
#include "Commands.h"
#include "FixedText.h"

#include "conclave/bench/FidelityDesigns.h"
#include "conclave/bench/GroundTruthWorld.h"
#include "conclave/experiment/CalibrationSamples.h"
#include "conclave/experiment/ExperimentRunner.h"
#include "conclave/experiment/ModelCalibration.h"
#include "conclave/experiment/StoredTrials.h"
#include "conclave/experiment/TrialSummaries.h"
#include "conclave/io/FileIo.h"
#include "conclave/io/ModelsFile.h"
#include "conclave/io/TeamJson.h"
#include "conclave/search/DesignSearch.h"
#include "conclave/search/FrontConfirmation.h"
#include "conclave/search/SpaceProposal.h"
#include "conclave/session/Engine.h"
#include "conclave/store/RunStore.h"

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <set>

namespace conclave::cli {

namespace {

namespace fs = std::filesystem;

constexpr int64_t kWorldBudget = 20000;

void removeDb(const fs::path& db)
{
    std::error_code ec;
    for (const char* suffix : {"", "-wal", "-shm"})
        fs::remove(db.string() + suffix, ec);
}

Team singleModel(const std::string& model)
{
    nlohmann::ordered_json team{
        {"conclave", 2},
        {"name", model},
        {"backends", {{"local", {{"kind", "local-moe"}, {"models", {{model, nlohmann::ordered_json::object()}}}}}}},
        {"defaults", {{"backend", "local"}, {"retries", 1}}},
        {"nodes", {{{"id", "in"}, {"kind", "input"}}, {{"id", "e"}, {"kind", "expert"}, {"model", model}},
                   {{"id", "out"}, {"kind", "output"}}}},
        {"edges", {{{"from", "in"}, {"to", "e"}}, {{"from", "e"}, {"to", "out"}}}}};
    return *teamFromJsonText(team.dump()).team;
}

struct WorldOutcome {
    size_t front = 0;
    size_t kept = 0;
    size_t fellOff = 0;     // front designs another was shown better than, in the world
    size_t fellOffSelf = 0; // of them, those that ask one model more than once
    size_t self = 0;        // front designs that ask one model more than once
    std::string error;
};

// Whether a design calls one model from more than one node (a vote or cascade of a model with itself).
bool repeatsAModel(const Team& team)
{
    std::set<std::string> seen;
    const auto fallback = team.defaults ? team.defaults->model : std::nullopt;
    for (const auto& node : team.nodes) {
        if (!node.callsModel())
            continue;
        const auto model = node.config.call.model ? node.config.call.model : fallback;
        if (model && !seen.insert(*model).second)
            return true;
    }
    return false;
}

// One world: calibrate on its search part, search each base there, measure each front in the world.
WorldOutcome oneWorld(const CliContext& context, const EngineResources& resources,
                      std::shared_ptr<const GroundTruthWorld> world, const fs::path& stem, const BenchArgs& args)
{
    WorldOutcome out;
    const auto tasks = std::make_shared<const TaskSet>(world->tasks());
    DesignSearch::Options options;
    std::string error;
    const auto parts = DesignSearch::split(*tasks, options.split, options.seed, {}, error);
    if (!parts) {
        out.error = error;
        return out;
    }
    const auto taskFile = stem.string() + ".tasks.jsonl";
    if (const auto failed = writeFileAtomically(taskFile, TaskSet::toJsonl(tasks->tasks()))) {
        out.error = taskFile + ": " + *failed;
        return out;
    }
    const fs::path db = stem.string() + ".sqlite";
    removeDb(db);
    auto withWorld = resources;
    withWorld.world = world;
    Engine inWorld(std::move(withWorld));

    // 1. Each model alone, and the world's debate, in the world, on the search part only: what the
    // calibration reads. The debate shows models each other's answers, as the searched cascades show
    // a later stage the earlier ones': without it calibration cannot measure how a model is swayed
    // (conformity), and the simulator falls back on its built-in persuasion (docs/search.md).
    ExperimentSpec measure;
    measure.name = "bench search: calibration on " + world->spec().name;
    for (const auto& [model, spec] : world->spec().models)
        measure.designs.push_back(makeDesign(model, "", singleModel(model)));
    for (auto& team : FidelityDesigns::forWorld(world->spec()))
        if (team.name == "debate")
            measure.designs.push_back(makeDesign("debate", "", std::move(team)));
    std::vector<const Task*> searchTasks;
    for (const size_t t : parts->search)
        searchTasks.push_back(&tasks->tasks()[t]);
    measure.tasksetName = taskFile;
    measure.tasksetPath = taskFile;
    measure.tasks = std::make_shared<const TaskSet>(tasks->subset(searchTasks));
    measure.seeds = {1, 2, 3};
    measure.clock = ClockRequest::Virtual;
    std::string experiment;
    {
        auto opened = RunStore::open(db);
        if (!opened.store) {
            out.error = opened.error;
            return out;
        }
        StoredTrials stored(*opened.store, StoredTrials::Keep::Runs);
        ExperimentRunner runner(inWorld, stored, measure, ExperimentRunner::Options{});
        const auto outcome = runner.run();
        opened.store->flush();
        if (!outcome.error.empty()) {
            out.error = outcome.error;
            return out;
        }
        experiment = runner.id();
    }
    // 2. Calibrate the simulator on it.
    const fs::path modelsFile = stem.string() + ".models.json";
    {
        auto reader = RunStore::openReader(db, error);
        auto samples = reader ? CalibrationSamples::read(*reader, {experiment}, *context.resources, error) : std::nullopt;
        if (!samples) {
            out.error = error;
            return out;
        }
        const auto fitted = ModelCalibration::fit(*samples, resources.localModels, {});
        if (!fitted.error.empty()) {
            out.error = fitted.error;
            return out;
        }
        if (const auto failed = writeFileAtomically(modelsFile, ModelsFile::toJsonText(fitted.models))) {
            out.error = *failed;
            return out;
        }
    }
    // 3. Search two of the world's designs on the calibrated simulator; 4. measure each front in the world.
    Engine simulator(resources);
    for (auto& team : FidelityDesigns::forWorld(world->spec())) {
        if (team.name != "cascade" && team.name != "vote")
            continue;
        team.backends.begin()->second.modelsFile = modelsFile.string();
        SearchBase base{"", "", team};
        // Only the world's models: the catalog's are not served there.
        const auto flags = SpaceProposal::flags(team, {}, {});
        auto space = SearchSpace::fromFlags(flags, {base}, error);
        if (!space) {
            out.error = team.name + ": " + error;
            return out;
        }
        options.budgetTrials = kWorldBudget;
        DesignSearch search(simulator, *space, tasks, options);
        const auto result = search.run();
        if (result.status != DesignSearch::Status::Finished) {
            out.error = team.name + ": " + (result.error.empty() ? result.note : result.error);
            return out;
        }
        ExperimentSpec front;
        front.name = "bench search: front in " + world->spec().name;
        std::vector<FrontConfirmation::Row> rows;
        std::vector<bool> repeats;
        for (const int id : result.front) {
            const auto& c = result.candidates[size_t(id - 1)];
            auto frontTeam = *teamFromJsonText(c.teamJson).team;
            repeats.push_back(repeatsAModel(frontTeam));
            front.designs.push_back(makeDesign("#" + std::to_string(id), "", std::move(frontTeam)));
            FrontConfirmation::Row row;
            row.name = "#" + std::to_string(id) + " " + c.name;
            row.predicted = result.testFigures.at(id);
            rows.push_back(row);
        }
        std::vector<const Task*> testTasks;
        std::vector<std::string> testIds;
        for (const size_t t : parts->test) {
            testTasks.push_back(&tasks->tasks()[t]);
            testIds.push_back(tasks->tasks()[t].id);
        }
        front.tasksetName = "test part";
        front.tasks = std::make_shared<const TaskSet>(tasks->subset(testTasks));
        front.seeds = options.trialSeeds;
        front.clock = ClockRequest::Virtual;
        std::vector<TrialRecord> trials;
        const auto measured = TrialSummaries::evaluate(inWorld, front, error, &trials);
        if (!measured) {
            out.error = team.name + ": " + error;
            return out;
        }
        FrontConfirmation::markDominated(rows, trials, testIds, front.seeds, options.objectives);
        if (args.verbose) {
            for (size_t i = 0; i < rows.size(); ++i)
                context.out << "    " << rows[i].name << ": predicted " << fixed(100 * rows[i].predicted[Objective::Accuracy], 1)
                            << " %, measured " << fixed(100 * measured->designs[i].overall.accuracy, 1) << " %"
                            << (rows[i].dominatedBy.empty() ? std::string() : "; shown worse than " + rows[i].dominatedBy)
                            << '\n';
        }
        size_t kept = 0;
        size_t inside = 0;
        for (size_t i = 0; i < rows.size(); ++i) {
            kept += rows[i].dominatedBy.empty() ? 1 : 0;
            const auto& ci = measured->designs[i].overall.ci;
            const double p = rows[i].predicted[Objective::Accuracy];
            inside += p >= ci.lo && p <= ci.hi ? 1 : 0;
        }
        out.front += rows.size();
        out.kept += kept;
        for (size_t i = 0; i < rows.size(); ++i) {
            out.self += repeats[i] ? 1 : 0;
            if (!rows[i].dominatedBy.empty()) {
                ++out.fellOff;
                out.fellOffSelf += repeats[i] ? 1 : 0;
            }
        }
        context.out << "  " << world->spec().name << " (seed " << world->spec().seed << "), " << team.name << ": "
                    << flags.size() << " fields; front of " << rows.size() << ", " << kept
                    << " still a front in the world on the " << testTasks.size() << " test tasks; " << inside
                    << " of " << rows.size() << " accuracy predictions inside the world's 95 % CI\n";
    }
    removeDb(db);
    std::error_code ec;
    fs::remove(taskFile, ec);
    fs::remove(modelsFile, ec);
    return out;
}

} // namespace

int searchWorldBench(const CliContext& context, const EngineResources& resources, const BenchArgs& args)
{
    std::vector<fs::path> files(args.worlds.begin(), args.worlds.end());
    if (files.empty()) {
        for (const auto& entry : fs::directory_iterator(*context.resources / "bench" / "worlds")) {
            if (entry.path().extension() == ".json")
                files.push_back(entry.path());
        }
        std::sort(files.begin(), files.end());
    }
    context.out << "search on ground-truth worlds (not the simulator): the simulator calibrated on each world's "
                   "search part (each model alone and the world's debate, 3 seeds), then the world's cascade and vote "
                   "searched on it ("
                << kWorldBudget << " trials), each front measured in the world on the test part; a design stays on "
                   "the front unless another front design is shown better there (paired 95 % CI):\n";
    size_t front = 0;
    size_t kept = 0;
    size_t fellOff = 0;
    size_t fellOffSelf = 0;
    size_t self = 0;
    for (const auto& file : files) {
        auto loaded = GroundTruthWorld::load(file, *context.resources);
        if (!loaded.world) {
            context.err << "bench search: " << file.string() << " does not load\n";
            return kExitFailed;
        }
        if (args.worldSeed)
            loaded.world = loaded.world->withSeed(loaded.world->seedUnder(*args.worldSeed));
        const fs::path stem =
            fs::temp_directory_path() / ("conclave-bench-search-" + std::to_string(::getpid()) + "-" +
                                         loaded.world->spec().name);
        const auto outcome = oneWorld(context, resources, loaded.world, stem, args);
        if (!outcome.error.empty()) {
            context.err << "bench search: " << loaded.world->spec().name << ": " << outcome.error << '\n';
            return kExitFailed;
        }
        front += outcome.front;
        kept += outcome.kept;
        fellOff += outcome.fellOff;
        fellOffSelf += outcome.fellOffSelf;
        self += outcome.self;
    }
    const double share = front == 0 ? 0 : double(kept) / double(front);
    context.out << "  target: >= 80 % of the fronts found on the simulator still a front in the world: " << kept
                << " of " << front << " = " << fixed(100 * share, 1) << " % - " << (share >= 0.8 ? "ok" : "MISSED")
                << "\n";
    context.out << "  of the " << fellOff << " that fell off, " << fellOffSelf << " ask one model more than once ("
                << self << " of all " << front
                << " front designs do; the worlds answer a model alike each time it is asked, the calibrated "
                   "simulator as its repeat_agreement says: docs/search.md)\n\n";
    return kExitOk;
}

} // namespace conclave::cli
