// `conclave bench routing` (quality): learned strong_weak routers on
// ground-truth worlds, judged by replay on held-out tasks (issue 32's targets).
#include "BenchTeams.h"
#include "Commands.h"
#include "FixedText.h"

#include "conclave/bench/GroundTruthWorld.h"
#include "conclave/bench/WordyTasks.h"
#include "conclave/experiment/ExperimentRunner.h"
#include "conclave/experiment/ModelOutcomes.h"
#include "conclave/experiment/RouterEvaluation.h"
#include "conclave/experiment/RouterTraining.h"
#include "conclave/experiment/RouterTrainingText.h"
#include "conclave/experiment/StoredTrials.h"
#include "conclave/experiment/SweepCurveText.h"
#include "conclave/io/FileIo.h"
#include "conclave/io/TeamJson.h"
#include "conclave/routing/RouterPredictor.h"
#include "conclave/session/Engine.h"
#include "conclave/store/RunStore.h"

#include <unistd.h>

#include <chrono>
#include <cmath>
#include <filesystem>

namespace conclave::cli {

namespace {

namespace fs = std::filesystem;
using json = nlohmann::ordered_json;

constexpr size_t kWordyTasks = 2000;

// A two-model world whose models differ in ability only: which tasks the weak
// model gets wrong is a matter of difficulty, part of it readable from the prompt.
struct RoutingWorld {
    std::string name;
    bool wordy; // WordyTasks (each word recurs) or the bundled task sets
    double readable;
    double strongSlope, strongAbility;
    double weakSlope, weakAbility;
    double confidenceAuroc;
};

const std::vector<RoutingWorld>& routingWorlds()
{
    static const std::vector<RoutingWorld> worlds{
        {"wordy-a", true, 0.8, 2.5, 1.5, 2.0, 0.5, 0.65},
        {"wordy-b", true, 0.6, 3.0, 1.8, 2.5, 0.6, 0.70},
        {"wordy-c", true, 0.9, 2.0, 1.2, 2.0, 0.3, 0.60},
        {"wordy-shallow", true, 0.8, 1.3, 1.0, 1.3, 0.0, 0.65},
        {"wordy-sharp", true, 0.8, 5.0, 1.5, 4.0, 0.5, 0.65},
        {"wordy-sharp-b", true, 0.7, 4.0, 1.2, 4.0, 0.2, 0.70},
        {"wordy-sharp-c", true, 0.9, 4.0, 1.8, 3.0, 0.8, 0.60},
        {"wordy-steep", true, 0.8, 6.0, 1.2, 6.0, 0.2, 0.65},
        {"wordy-ids-only", true, 0.0, 2.5, 1.5, 2.0, 0.5, 0.65},
        {"bundled-0.8", false, 0.8, 2.5, 1.5, 2.0, 0.5, 0.65},
        {"bundled-ids-only", false, 0.0, 3.0, 1.8, 2.5, 0.6, 0.70},
    };
    return worlds;
}

std::string worldJson(const RoutingWorld& w, uint64_t seed)
{
    const auto model = [](double slope, double ability, double in, double out) {
        json abilities = json::object();
        for (const char* domain : {"math", "code", "facts", "reasoning", "writing"})
            abilities[domain] = ability;
        return json{{"slope", slope},     {"abilities", abilities},
                    {"ttft_ms", 300},     {"output_tokens", 120},
                    {"tokens_per_s", 80}, {"price_per_mtok", {{"input", in}, {"output", out}}}};
    };
    json doc{{"format", 1},
             {"name", w.name},
             {"seed", seed},
             {"readable_share", w.readable},
             {"confidence", {{"auroc", w.confidenceAuroc}, {"floor", 0.3}, {"ceiling", 0.95}}},
             {"models",
              {{"strong", model(w.strongSlope, w.strongAbility, 3.0, 12.0)},
               {"weak", model(w.weakSlope, w.weakAbility, 0.15, 0.6)}}}};
    return doc.dump();
}

Team single(const std::string& model)
{
    return benchSingleModelTeam(model, {{"kind", "local-moe"}, {"models", {{model, json::object()}}}});
}

} // namespace

int routingQualityBench(const CliContext& context, const BenchArgs& args)
{
    const auto fail = [&](const std::string& message) {
        context.err << "bench routing: " << message << '\n';
        return kExitFailed;
    };
    auto resources = context.engineResources();
    if (!resources || !context.resources)
        return kExitBadInput;
    const uint64_t setSeed = args.worldSeed.value_or(1);
    context.out << "routing: learned strong_weak routers (logistic) on ground-truth worlds (not the simulator), "
                   "each task once per model (bundled: every bundled task; wordy: 1,200 generated tasks whose words "
                   "recur); trained on half the tasks, judged by replay on the other "
                   "half (TaskSplit seed "
                << setSeed << "), 95 % CIs from 2,000 bootstrap resamples over tasks\n";
    for (const auto& spec : routingWorlds()) {
        auto loaded = GroundTruthWorld::fromJsonText(worldJson(spec, 0), *context.resources);
        if (!loaded.world)
            return fail(spec.name + ": " + (loaded.problems.empty() ? "" : loaded.problems.front().message));
        auto world = loaded.world->withSeed(loaded.world->seedUnder(setSeed));
        if (spec.wordy)
            world = std::make_shared<const GroundTruthWorld>(
                world->spec(), std::make_shared<const TaskSet>(WordyTasks::generate(kWordyTasks, world->spec().seed)));
        const fs::path db =
            args.db ? fs::path(*args.db + "-" + spec.name + ".sqlite")
                    : fs::temp_directory_path() /
                          ("conclave-bench-routing-" + std::to_string(::getpid()) + "-" + spec.name + ".sqlite");
        std::error_code ec;
        for (const char* suffix : {"", "-wal", "-shm"})
            fs::remove(db.string() + suffix, ec);
        const auto start = std::chrono::steady_clock::now();
        std::string experiment;
        {
            ExperimentSpec experimentSpec;
            experimentSpec.name = "bench routing on " + spec.name;
            for (const char* model : {"strong", "weak"})
                experimentSpec.designs.push_back(makeDesign(model, "", single(model)));
            const auto taskFile = db.string() + ".tasks.jsonl";
            if (const auto failed = writeFileAtomically(taskFile, TaskSet::toJsonl(world->tasks().tasks())))
                return fail(taskFile + ": " + *failed);
            // Named without the temporary folder: a task's key ("set\nid") picks its cross-validation
            // fold, so a name holding the process id would make every run train a slightly different router.
            experimentSpec.tasksetName = "bench-routing-" + spec.name + ".jsonl";
            experimentSpec.tasksetPath = taskFile;
            experimentSpec.tasks = std::make_shared<const TaskSet>(world->tasks());
            experimentSpec.seeds = {1};
            experimentSpec.clock = ClockRequest::Virtual;
            auto withWorld = *resources;
            withWorld.world = world;
            Engine engine(std::move(withWorld));
            auto opened = RunStore::open(db);
            if (!opened.store)
                return fail(opened.error);
            StoredTrials stored(*opened.store, StoredTrials::Keep::Runs);
            ExperimentRunner::Options options;
            options.concurrency = 64;
            ExperimentRunner runner(engine, stored, experimentSpec, options);
            const auto outcome = runner.run();
            opened.store->flush();
            if (!outcome.error.empty())
                return fail(spec.name + ": measuring: " + outcome.error);
            experiment = runner.id();
        }
        auto opened = RunStore::openForReading(db);
        if (!opened.store)
            return fail(opened.error);
        std::string error;
        auto reader = opened.store->reader(error);
        if (!reader)
            return fail(error);
        RouterTraining::Options training;
        training.experiments = {experiment};
        training.models = {"strong", "weak"};
        training.holdout = 0.5;
        training.seed = setSeed;
        auto trained = RouterTraining::run(*reader, training, *context.resources, resources->gate, error);
        if (!trained)
            return fail(spec.name + ": training: " + error);
        auto outcomes = ModelOutcomes::read(*reader, {experiment}, *context.resources, error);
        if (!outcomes)
            return fail(spec.name + ": " + error);
        std::vector<std::string> heldout;
        for (const auto& task : trained->model.heldoutTasks)
            heldout.push_back(task.set + "\n" + task.id);
        auto predictor = RouterPredictor::make(trained->model, resources->gate, error);
        if (!predictor)
            return fail(error);
        RouterEvaluation::Options evaluation;
        evaluation.strong = "strong";
        evaluation.weak = "weak";
        const auto input = RouterEvaluation::strongWeak(*outcomes, heldout, *predictor, evaluation, error);
        if (!input)
            return fail(spec.name + ": " + error);
        const auto report = CurveBootstrap::compute(*input, {}, error);
        if (!report)
            return fail(spec.name + ": " + error);
        // The ceiling: the same router knowing each task's true chances (the world's difficulty and curves).
        const auto truth = [&](const Task& task) {
            const Task* own = world->tasks().byId(task.id);
            auto t = own ? world->truth(*own) : GroundTruthWorld::Truth{};
            t.domain = task.domain;
            return std::pair{world->pRight("weak", t), world->pRight("strong", t)};
        };
        const auto oracleInput = RouterEvaluation::strongWeak(*outcomes, heldout, truth, evaluation, error);
        // The readable ceiling: the same router knowing only the readable part of each task's difficulty.
        const auto readableTruth = [&](const Task& task) {
            return std::pair{world->pRightReadable("weak", task), world->pRightReadable("strong", task)};
        };
        const auto readableInput = RouterEvaluation::strongWeak(*outcomes, heldout, readableTruth, evaluation, error);
        CurveBootstrap::Options once;
        once.resamples = 0;
        const auto oracle = oracleInput ? CurveBootstrap::compute(*oracleInput, once, error) : std::nullopt;
        const auto readableOracle =
            readableInput ? CurveBootstrap::compute(*readableInput, once, error) : std::nullopt;
        const auto& curve = report->curves.front();
        const auto& refs = report->references;
        context.out << "world " << spec.name << " (" << (spec.wordy ? "wordy" : "bundled") << " tasks, readable share "
                    << fixed(spec.readable, 1) << ", seed " << world->spec().seed << "): " << heldout.size()
                    << " held-out tasks; weak " << fixed(refs[0].quality * 100, 1) << " %, strong "
                    << fixed(refs[1].quality * 100, 1) << " %; router held-out AUROC "
                    << (trained->auroc ? fixed(*trained->auroc, 3) : "-");
        if (const auto pooling = RouterTrainingText::pooling(trained->model))
            context.out << "; " << *pooling;
        context.out << " ("
                    << fixed(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 1)
                    << " s)\n";
        if (curve.gain) {
            context.out << "  APGR " << SweepCurveText::figure(curve.gain->apgr) << "; CPT(50 %) "
                        << SweepCurveText::threshold(curve.gain->cpt50) << "; CPT(80 %) "
                        << SweepCurveText::threshold(curve.gain->cpt80) << "; AIQ " << SweepCurveText::figure(curve.aiq)
                        << '\n';
        }
        if (oracle && oracle->curves.front().gain && oracle->curves.front().gain->apgr.value)
            context.out << "  ceiling: the same policy on the world's true chances: APGR "
                        << fixed(*oracle->curves.front().gain->apgr.value, 3) << '\n';
        if (readableOracle && readableOracle->curves.front().gain && readableOracle->curves.front().gain->apgr.value)
            context.out << "  readable ceiling: the same policy knowing only the readable part of difficulty: APGR "
                        << fixed(*readableOracle->curves.front().gain->apgr.value, 3) << '\n';
        if (const auto failed = cascadeScorerLines(context.out, *reader, experiment, setSeed, *context.resources,
                                                   resources->gate, *outcomes, heldout))
            return fail(spec.name + ": " + *failed);
        if (!args.db) {
            for (const char* suffix : {"", "-wal", "-shm"})
                fs::remove(db.string() + suffix, ec);
            fs::remove(db.string() + ".tasks.jsonl", ec);
        }
    }
    if (const auto failed = gateComparisonLines(context.out, *resources, *context.resources, setSeed))
        return fail("learned router vs moe_gate: " + *failed);
    context.out << '\n';
    return kExitOk;
}

} // namespace conclave::cli
