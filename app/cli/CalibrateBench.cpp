// `conclave bench calibrate`: the joint fit's time on 5 models × 2,000 answers
// over 1,000 tasks, and calibrate end to end on an experiment of 10,000 trials.
#include "Commands.h"
#include "FixedText.h"

#include "conclave/analysis/Quantile.h"
#include "conclave/engine/DeterministicRandom.h"
#include "conclave/experiment/ExperimentRunner.h"
#include "conclave/experiment/ModelCalibration.h"
#include "conclave/experiment/StoredTrials.h"
#include "conclave/io/FileIo.h"
#include "conclave/io/TeamJson.h"
#include "conclave/local/ItemBank.h"
#include "conclave/store/RunStore.h"

#include <unistd.h>

#include <chrono>
#include <filesystem>

namespace conclave::cli {

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start)
{
    return std::chrono::duration<double>(Clock::now() - start).count();
}

// 5 models answer 1,000 tasks (two domains, four choices) twice each, by the
// simulator's curve with weights 0.5–0.9; wrong answers pick among three
// wrong choices; every answer comes with a call at one of four load levels.
CalibrationSamples drawnSamples()
{
    CalibrationSamples samples;
    const double skills[5] = {0.9, 0.8, 0.7, 0.6, 0.5};
    const double weights[5] = {0.5, 0.6, 0.7, 0.8, 0.9};
    for (int t = 0; t < 1000; ++t) {
        const double z = DeterministicRandom::normal(DeterministicRandom::key({"task", std::to_string(t)}, 1), 1);
        for (int m = 0; m < 5; ++m) {
            for (int seed = 0; seed < 2; ++seed) {
                const auto key = DeterministicRandom::key({std::to_string(t), std::to_string(m), std::to_string(seed)}, 1);
                const double a = ItemBank::ability(skills[m] - 0.1 * (t % 2));
                const double p = ItemBank::normalCdf((a - std::sqrt(weights[m]) * z) / std::sqrt(1 - weights[m]));
                CalibrationSamples::Answer answer;
                answer.model = "m" + std::to_string(m);
                answer.seed = uint64_t(seed);
                answer.domain = t % 2 ? "facts" : "math";
                answer.task = "bench\n" + std::to_string(t);
                answer.hasChoices = true;
                answer.wrongOptions = 3;
                answer.correct = DeterministicRandom::unit(key, 1) < p;
                answer.answer = answer.correct ? "right" : "w" + std::to_string(int(DeterministicRandom::unit(key, 2) * 3));
                answer.confidence = answer.correct ? 0.85 : 0.75;
                samples.answers.push_back(answer);
                CalibrationSamples::Call call;
                call.model = answer.model;
                call.ok = true;
                call.inflight = 1 + int64_t(DeterministicRandom::unit(key, 3) * 4);
                call.tokensOut = 50 + int64_t(DeterministicRandom::unit(key, 4) * 100);
                call.ttftMs = 200 * (1 + 0.1 * double(call.inflight - 1));
                call.durationMs = call.ttftMs + 10 * double(call.tokensOut) * (1 + 0.1 * double(call.inflight - 1));
                samples.calls.push_back(call);
            }
        }
    }
    return samples;
}

constexpr const char* kTeam = R"({"conclave": 1, "name": "five experts",
    "backends": {"local": {"kind": "local-moe"}},
    "nodes": [{"id": "in", "kind": "input"},
              {"id": "a", "kind": "expert", "model": "local/generalist-7b"},
              {"id": "b", "kind": "expert", "model": "local/math-13b"},
              {"id": "c", "kind": "expert", "model": "local/facts-7b"},
              {"id": "d", "kind": "expert", "model": "local/reasoner-34b"},
              {"id": "e", "kind": "expert", "model": "local/frontier-70b"},
              {"id": "vote", "kind": "aggregator", "strategy": "majority"},
              {"id": "out", "kind": "output"}],
    "edges": [{"from": "in", "to": "a"}, {"from": "in", "to": "b"}, {"from": "in", "to": "c"},
              {"from": "in", "to": "d"}, {"from": "in", "to": "e"}, {"from": "a", "to": "vote"},
              {"from": "b", "to": "vote"}, {"from": "c", "to": "vote"}, {"from": "d", "to": "vote"},
              {"from": "e", "to": "vote"}, {"from": "vote", "to": "out"}]})";

void removeDb(const fs::path& db)
{
    std::error_code ec;
    for (const char* suffix : {"", "-wal", "-shm"})
        fs::remove(db.string() + suffix, ec);
}

} // namespace

int calibrateBench(const CliContext& context, Engine& engine, const BenchArgs& args)
{
    const auto fail = [&](const std::string& message) {
        context.err << "bench calibrate: " << message << '\n';
        return kExitFailed;
    };
    const auto samples = drawnSamples();
    std::vector<double> fits;
    for (int r = 0; r < std::max(1, args.runs); ++r) {
        const auto start = Clock::now();
        const auto fitted = ModelCalibration::fit(samples, {}, {});
        fits.push_back(secondsSince(start));
        if (!fitted.error.empty() || fitted.models.size() != 5)
            return fail("the drawn samples did not fit: " + fitted.error);
    }
    context.out << "calibrate: the fit of 5 models x 2,000 answers over 1,000 tasks (joint skills and weights, "
                   "task difficulties, pairwise agreement, confidence, load): "
                << fixed(Quantile::median(fits), 3) << " s median of " << fits.size() << " (target <= 2 s)\n";

    // An experiment of 10,000 trials on the simulated clock, then calibrate on it.
    auto tasks = TaskSet::loadFolder(*context.resources / "tasksets");
    if (!tasks.tasks)
        return fail("the bundled task sets do not load");
    auto team = teamFromJsonText(kTeam);
    ExperimentSpec spec;
    spec.name = "bench calibrate";
    spec.designs.push_back(makeDesign("five experts", "five-experts.team.json", std::move(*team.team)));
    // Every bundled task in one file, so calibrate reloads the set as it would a user's.
    const auto stem = fs::temp_directory_path() / ("conclave-bench-calibrate-" + std::to_string(::getpid()));
    const auto taskFile = stem.string() + ".jsonl";
    if (const auto failed = writeFileAtomically(taskFile, TaskSet::toJsonl(tasks.tasks->tasks())))
        return fail(taskFile + ": " + *failed);
    spec.tasksetName = taskFile;
    spec.tasksetPath = taskFile;
    const size_t taskCount = tasks.tasks->tasks().size();
    spec.tasks = std::make_shared<const TaskSet>(std::move(*tasks.tasks));
    const size_t seeds = (10000 + taskCount - 1) / taskCount;
    for (size_t s = 1; s <= seeds; ++s)
        spec.seeds.push_back(s);
    const fs::path db = stem.string() + ".sqlite";
    removeDb(db);
    std::string experiment;
    {
        auto opened = RunStore::open(db);
        if (!opened.store)
            return fail(opened.error);
        StoredTrials stored(*opened.store, StoredTrials::Keep::Runs);
        ExperimentRunner::Options options;
        options.concurrency = 64;
        ExperimentRunner runner(engine, stored, spec, options);
        const auto start = Clock::now();
        const auto outcome = runner.run();
        opened.store->flush();
        if (!outcome.error.empty())
            return fail(outcome.error);
        experiment = runner.id();
        context.out << "calibrate end to end: an experiment of " << outcome.ran << " trials (5 experts each, "
                    << taskCount << " bundled tasks x " << seeds << " seeds) stored in " << fixed(secondsSince(start), 1)
                    << " s\n";
    }
    std::vector<double> walls;
    std::vector<double> reads;
    for (int r = 0; r < std::max(1, args.runs); ++r) {
        const auto start = Clock::now();
        auto opened = RunStore::openForReading(db);
        if (!opened.store)
            return fail(opened.error);
        std::string error;
        auto reader = opened.store->reader(error);
        if (!reader)
            return fail(error);
        auto read = CalibrationSamples::read(*reader, {experiment}, *context.resources, error);
        if (!read)
            return fail(error);
        reads.push_back(secondsSince(start));
        const auto fitted = ModelCalibration::fit(*read, {}, {});
        walls.push_back(secondsSince(start));
        if (!fitted.error.empty())
            return fail(fitted.error);
    }
    removeDb(db);
    std::error_code ec;
    fs::remove(taskFile, ec);
    context.out << "  calibrate (open, read every run, fit): " << fixed(Quantile::median(walls), 2) << " s median of "
                << walls.size() << " (target <= 5 s), of which reading the store " << fixed(Quantile::median(reads), 2)
                << " s\n\n";
    return kExitOk;
}

} // namespace conclave::cli
