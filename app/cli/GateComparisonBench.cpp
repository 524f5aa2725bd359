// `conclave bench routing`, last part: a learned router against the
// mixture-of-experts gate on the simulator, where a task's difficulty is not
// readable from its words: the bundled tasks and the catalog's four
// specialists (triage's gate's experts), the router trained on half the
// tasks and both routers run on the other half, paired.
#include "BenchTeams.h"
#include "Commands.h"
#include "FixedText.h"

#include "conclave/analysis/ExperimentStats.h"
#include "conclave/experiment/ExperimentRunner.h"
#include "conclave/experiment/ReportText.h"
#include "conclave/experiment/RouterTraining.h"
#include "conclave/experiment/StoredTrials.h"
#include "conclave/io/FileIo.h"
#include "conclave/io/TeamJson.h"
#include "conclave/routing/RouterFile.h"
#include "conclave/store/RunStore.h"
#include "conclave/util/MoneyText.h"

#include <unistd.h>

namespace conclave::cli {

namespace {

namespace fs = std::filesystem;
using json = nlohmann::ordered_json;

const std::vector<std::string> kExperts{"local/math-13b", "local/code-13b", "local/facts-7b", "local/writer-7b"};

json backends()
{
    return {{"local", {{"kind", "local-moe"}, {"seed", 42}}}};
}

Team alone(const std::string& model)
{
    return benchSingleModelTeam(model, backends()["local"]);
}

// Input → the router → the four specialists → the first answer → output.
std::optional<Team> routed(const std::string& name, json router, std::string& error)
{
    router["id"] = "route";
    router["kind"] = "router";
    json nodes = json::array({{{"id", "in"}, {"kind", "input"}}, router});
    json edges = json::array({{{"from", "in"}, {"to", "route"}}});
    for (size_t e = 0; e < kExperts.size(); ++e) {
        const std::string id = "e" + std::to_string(e);
        nodes.push_back({{"id", id}, {"kind", "expert"}, {"model", kExperts[e]}, {"prompt", "{{input}}"}});
        edges.push_back({{"from", "route"}, {"to", id}, {"when", id}});
        edges.push_back({{"from", id}, {"to", "join"}});
    }
    nodes.push_back({{"id", "join"}, {"kind", "aggregator"}, {"strategy", "first"}});
    nodes.push_back({{"id", "out"}, {"kind", "output"}});
    edges.push_back({{"from", "join"}, {"to", "out"}});
    json team{{"conclave", 3},  {"name", name},  {"backends", backends()}, {"defaults", {{"backend", "local"}}},
              {"nodes", nodes}, {"edges", edges}};
    auto loaded = teamFromJsonText(team.dump());
    if (!loaded.team)
        error = name + ": " + (loaded.problems.empty() ? "does not load" : loaded.problems.front().message);
    return loaded.team;
}

// Runs one experiment into the store at `db`; its id, or unset with `error`.
std::optional<std::string> run(Engine& engine, const fs::path& db, ExperimentSpec spec, std::string& error)
{
    auto opened = RunStore::open(db);
    if (!opened.store) {
        error = opened.error;
        return std::nullopt;
    }
    StoredTrials stored(*opened.store, StoredTrials::Keep::Runs);
    ExperimentRunner::Options options;
    options.concurrency = 64;
    ExperimentRunner runner(engine, stored, spec, options);
    const auto outcome = runner.run();
    opened.store->flush();
    if (!outcome.error.empty()) {
        error = spec.name + ": " + outcome.error;
        return std::nullopt;
    }
    return runner.id();
}

ExperimentSpec specOn(const std::string& name, const fs::path& taskFile, std::shared_ptr<const TaskSet> tasks,
                      uint64_t seeds)
{
    ExperimentSpec spec;
    spec.name = name;
    spec.tasksetName = taskFile.filename().string(); // not the temporary folder: keys pick folds (RoutingBench)
    spec.tasksetPath = taskFile.string();
    spec.tasks = std::move(tasks);
    for (uint64_t s = 1; s <= seeds; ++s)
        spec.seeds.push_back(s);
    spec.clock = ClockRequest::Virtual;
    return spec;
}

} // namespace

std::optional<std::string> gateComparisonLines(std::ostream& out, const EngineResources& resources,
                                               const fs::path& resourcesDir, uint64_t splitSeed)
{
    std::string error;
    auto all = TaskSet::loadFolder(resourcesDir / "tasksets");
    if (!all.tasks)
        return "the bundled task sets do not load";
    const fs::path dir = fs::temp_directory_path() / ("conclave-bench-gate-" + std::to_string(::getpid()));
    std::error_code ec;
    fs::remove_all(dir, ec);
    fs::create_directories(dir, ec);
    const auto cleanup = [&] { fs::remove_all(dir, ec); };
    const fs::path db = dir / "runs.sqlite";
    const fs::path allFile = dir / "bundled.jsonl";
    if (const auto failed = writeFileAtomically(allFile, TaskSet::toJsonl(all.tasks->tasks())))
        return *failed;
    Engine engine(resources);

    // Each specialist alone on every task, with 3 and with 10 seeds; a router learns from half of the tasks.
    const std::vector<uint64_t> trainingSeeds{3, 10};
    std::vector<RouterModel> models;
    std::vector<fs::path> routerFiles;
    for (const uint64_t seeds : trainingSeeds) {
        auto alones = specOn("every specialist alone", allFile, std::make_shared<const TaskSet>(*all.tasks), seeds);
        for (const auto& model : kExperts)
            alones.designs.push_back(makeDesign(model, "", alone(model)));
        const auto measured = run(engine, db, std::move(alones), error);
        if (!measured)
            return cleanup(), error;
        auto opened = RunStore::openForReading(db);
        auto reader = opened.store ? opened.store->reader(error) : nullptr;
        if (!reader)
            return cleanup(), opened.error + error;
        RouterTraining::Options training;
        training.experiments = {*measured};
        training.models = kExperts;
        training.holdout = 0.5;
        training.seed = splitSeed;
        auto trained = RouterTraining::run(*reader, training, resourcesDir, resources.gate, error);
        if (!trained)
            return cleanup(), error;
        routerFiles.push_back(dir / ("specialists-" + std::to_string(seeds) + ".router.json"));
        if (const auto failed = writeFileAtomically(routerFiles.back(), RouterFile::toJsonText(trained->model)))
            return cleanup(), *failed;
        models.push_back(std::move(trained->model));
    }

    // The routers on the held-out half (the same tasks for both sizes: one split).
    std::vector<Task> heldout;
    for (const auto& ref : models.front().heldoutTasks)
        if (const Task* task = all.tasks->byId(ref.id))
            heldout.push_back(*task);
    const fs::path heldoutFile = dir / "heldout.jsonl";
    if (const auto failed = writeFileAtomically(heldoutFile, TaskSet::toJsonl(heldout)))
        return cleanup(), *failed;
    auto heldoutSet = TaskSet::load(heldoutFile);
    if (!heldoutSet.tasks)
        return cleanup(), std::string("the held-out tasks do not load");
    auto compared = specOn("learned router vs moe_gate", heldoutFile,
                           std::make_shared<const TaskSet>(std::move(*heldoutSet.tasks)), 3);
    std::vector<std::string> names;
    const auto gate = routed("moe_gate, top 1", {{"strategy", "moe_gate"}, {"top_k", 1}}, error);
    if (!gate)
        return cleanup(), error;
    compared.designs.push_back(makeDesign(gate->name, "", *gate));
    names.push_back(gate->name);
    for (size_t i = 0; i < trainingSeeds.size(); ++i) {
        const auto learned = routed("learned, max_utility, trained on " + std::to_string(trainingSeeds[i]) + " seeds",
                                    {{"strategy", "learned"},
                                     {"router_file", routerFiles[i].string()},
                                     {"policy", "max_utility"},
                                     {"cost_weight", 0}},
                                    error);
        if (!learned)
            return cleanup(), error;
        compared.designs.push_back(makeDesign(learned->name, "", *learned));
        names.push_back(learned->name);
    }
    const auto id = run(engine, db, std::move(compared), error);
    if (!id)
        return cleanup(), error;
    auto opened = RunStore::openForReading(db);
    auto reader = opened.store ? opened.store->reader(error) : nullptr;
    const auto trials = reader ? reader->trials(*id, error) : std::nullopt;
    if (!trials)
        return cleanup(), error;
    const auto summary = ExperimentStats::summarize(names, 0, *trials);
    cleanup();

    out << "learned router vs moe_gate on the simulator (bundled tasks, whose difficulty is not in their words; the "
           "catalog's specialists math-13b, code-13b, facts-7b, writer-7b): trained on "
        << models.front().tasks.size() << " tasks, both run on the other " << heldout.size()
        << " x 3 seeds, paired (SIMULATED)\n";
    for (const auto& d : summary.designs) {
        out << "  " << d.name << ": " << ReportText::percent(d.overall.accuracy) << " "
            << ReportText::ciText(d.overall.ci) << ", " << moneyText(d.meanCostUsd) << " per trial";
        if (d.vsBaseline)
            out << "; vs moe_gate " << ReportText::delta(d) << ", cost " << ReportText::ratio(d.vsBaseline->costRatio);
        out << '\n';
    }
    return std::nullopt;
}

} // namespace conclave::cli
