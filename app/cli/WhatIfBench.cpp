// `conclave bench whatif`: re-projecting a stored 1,000-node run under a
// change, and a 10-agent design's speed-up profile over an experiment of 500
// trials (docs/whatif.md; targets ≤ 20 ms and ≤ 2 s).
#include "Commands.h"
#include "FixedText.h"

#include "conclave/analysis/Quantile.h"
#include "conclave/bench/BenchTeams.h"
#include "conclave/experiment/ExperimentRunner.h"
#include "conclave/experiment/StoredTrials.h"
#include "conclave/io/TeamJson.h"
#include "conclave/session/RecordedStart.h"
#include "conclave/store/RunQueries.h"
#include "conclave/store/RunStore.h"
#include "conclave/whatif/DesignWhatIf.h"
#include "conclave/whatif/WhatIf.h"

#include <unistd.h>

#include <chrono>
#include <filesystem>

namespace conclave::cli {

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point start)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

void removeDb(const fs::path& db)
{
    std::error_code ec;
    for (const char* suffix : {"", "-wal", "-shm"})
        fs::remove(db.string() + suffix, ec);
}

// in → ten experts on the catalog's models → majority → out.
Team tenExperts()
{
    const char* models[10] = {"local/tiny-1b",   "local/generalist-7b", "local/math-13b",     "local/code-13b",
                              "local/facts-7b",  "local/writer-7b",     "local/reasoner-34b", "local/frontier-70b",
                              "local/math-13b",  "local/generalist-7b"};
    nlohmann::json doc{{"conclave", 1}, {"name", "ten experts"}};
    doc["backends"]["local"] = {{"kind", "local-moe"}, {"max_concurrency", 4}};
    doc["nodes"] = nlohmann::json::array({{{"id", "in"}, {"kind", "input"}}});
    doc["edges"] = nlohmann::json::array();
    for (int i = 0; i < 10; ++i) {
        const std::string id = "e" + std::to_string(i);
        doc["nodes"].push_back({{"id", id}, {"kind", "expert"}, {"model", models[i]}});
        doc["edges"].push_back({{"from", "in"}, {"to", id}});
        doc["edges"].push_back({{"from", id}, {"to", "vote"}});
    }
    doc["nodes"].push_back({{"id", "vote"}, {"kind", "aggregator"}, {"strategy", "majority"}});
    doc["nodes"].push_back({{"id", "out"}, {"kind", "output"}});
    doc["edges"].push_back({{"from", "vote"}, {"to", "out"}});
    return *teamFromJson(doc).team;
}

} // namespace

int whatIfBench(const CliContext& context, Engine& engine, const BenchArgs& args)
{
    const auto fail = [&](const std::string& message) {
        context.err << "bench whatif: " << message << '\n';
        return kExitFailed;
    };
    const auto stem = fs::temp_directory_path() / ("conclave-bench-whatif-" + std::to_string(::getpid()));
    const fs::path db = stem.string() + ".sqlite";
    removeDb(db);
    auto opened = RunStore::open(db);
    if (!opened.store)
        return fail(opened.error);
    engine.setStore(db);
    std::string error;

    // 1. A stored run of 1,000 nodes: 997 experts of 200 ms fanned out, re-projected with one 50 % faster.
    {
        const auto team = BenchTeams::fanOut(997, 200);
        const auto prepared = engine.prepare(team);
        if (!prepared.team)
            return fail(prepared.error);
        auto started = startRecorded(engine, opened.store.get(), *prepared.team, "Calculate 323 + 460.",
                                     Engine::StartOptions{1, {}, ClockRequest::Virtual, {}, {}});
        if (!started.run)
            return fail(started.error);
        started.run->wait();
        if (const auto stored = started.recorder->waitUntilStored(); !stored.empty())
            return fail(stored);
        auto reader = RunStore::openReader(db, error);
        if (!reader)
            return fail(error);
        const auto whatIf = WhatIf::load(engine, *reader, started.recorder->id().str(), error);
        if (!whatIf)
            return fail(error);
        WhatIfChanges changes;
        changes.speeds.set(team.nodes[2].id, LatencyChange::faster(50));
        std::vector<double> times;
        int64_t nodes = 0;
        for (int r = 0; r < std::max(20, args.runs); ++r) {
            const auto start = Clock::now();
            const auto report = whatIf->project(changes, error);
            times.push_back(msSince(start));
            if (!report)
                return fail(error);
            nodes = int64_t(report->nodes.size());
        }
        std::sort(times.begin(), times.end());
        context.out << "whatif: a stored run of " << team.nodes.size() << " nodes (" << nodes
                    << " ran) re-projected with one expert 50 % faster: " << fixed(Quantile::median(times), 2)
                    << " ms median, p95 " << fixed(Quantile::of(times, 0.95), 2) << " ms of " << times.size()
                    << " (target <= 20 ms; loading and preparing the team excluded)\n";
    }

    // 2. A 10-agent design's profile over 500 trials (the 25 tasks of mixed-small × 20 seeds).
    {
        auto tasks = TaskSet::load(*context.resources / "tasksets" / "mixed-small.jsonl");
        if (!tasks.tasks)
            return fail("the bundled task set mixed-small does not load");
        ExperimentSpec spec;
        spec.name = "bench whatif";
        spec.designs.push_back(makeDesign("ten experts", "ten-experts.team.json", tenExperts()));
        spec.tasksetName = "mixed-small";
        spec.tasksetBundled = true;
        spec.tasks = std::make_shared<const TaskSet>(std::move(*tasks.tasks));
        for (uint64_t s = 1; s <= 20; ++s) // 25 tasks × 20 seeds
            spec.seeds.push_back(s);
        StoredTrials stored(*opened.store, StoredTrials::Keep::Runs);
        ExperimentRunner::Options options;
        options.concurrency = 64;
        ExperimentRunner runner(engine, stored, spec, options);
        const auto outcome = runner.run();
        opened.store->flush();
        if (!outcome.error.empty())
            return fail(outcome.error);
        std::vector<double> loads, profiles;
        std::string headline;
        for (int r = 0; r < std::max(3, args.runs); ++r) {
            auto start = Clock::now();
            auto reader = RunStore::openReader(db, error);
            if (!reader)
                return fail(error);
            const auto design = DesignWhatIf::load(engine, *reader, runner.id(), "ten experts", error);
            if (!design)
                return fail(error);
            loads.push_back(msSince(start));
            start = Clock::now();
            const auto profile = design->profile(error);
            profiles.push_back(msSince(start) / 1e3);
            if (!profile)
                return fail(error);
            headline = profile->headline();
        }
        context.out << "whatif: the profile of a 10-agent design over " << outcome.ran
                    << " trials (10 agents x 4 speeds + 1 backend doubled + none = 42 projections per trial): "
                    << fixed(Quantile::median(profiles), 2) << " s median of " << profiles.size()
                    << " (target <= 2 s); loading the trials " << fixed(Quantile::median(loads), 0) << " ms\n"
                    << "  " << headline << "\n\n";
    }
    opened.store.reset();
    removeDb(db);
    return kExitOk;
}

} // namespace conclave::cli
