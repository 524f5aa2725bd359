// `conclave bench search`: issue 33's targets for the design search, on the
// simulator — every bundled example searched from its own proposed space,
// the front against a frontier model alone, the hypervolume against an
// exhaustive grid, and trials per second while searching.
#include "Commands.h"
#include "FixedText.h"

#include "conclave/analysis/Hypervolume.h"
#include "conclave/experiment/TrialSummaries.h"
#include "conclave/io/TeamFile.h"
#include "conclave/io/TeamJson.h"
#include "conclave/search/DesignSearch.h"
#include "conclave/search/SpaceProposal.h"
#include "conclave/session/Engine.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <map>

namespace conclave::cli {

namespace {

namespace fs = std::filesystem;

constexpr int64_t kBudgetTrials = 60000; // per example, of the search part
constexpr double kBudgetSeconds = 60;    // per example, wall
constexpr const char* kFrontier = "local/frontier-70b";

const char* kAlone = R"({"conclave": 1, "name": "frontier-70b alone",
  "backends": {"local": {"kind": "local-moe"}},
  "defaults": {"backend": "local"},
  "nodes": [{"id": "in", "kind": "input"}, {"id": "model", "kind": "expert", "model": "local/frontier-70b"},
            {"id": "out", "kind": "output"}],
  "edges": [{"from": "in", "to": "model"}, {"from": "model", "to": "out"}]})";

std::shared_ptr<const TaskSet> bundledTasks(const fs::path& resources, std::string& error)
{
    std::optional<TaskSet> all;
    for (const char* name : {"code", "facts", "math", "reasoning", "writing"}) {
        auto loaded = TaskSet::load(resources / "tasksets" / (std::string(name) + ".jsonl"));
        if (!loaded.tasks) {
            error = std::string(name) + ".jsonl does not load";
            return nullptr;
        }
        if (!all)
            all = std::move(*loaded.tasks);
        else
            all->merge(*loaded.tasks);
    }
    return std::make_shared<const TaskSet>(std::move(*all));
}

std::string pct(double value)
{
    return fixed(100 * value, 1);
}

std::string ciPt(const Interval& ci)
{
    return "[" + fixed(100 * ci.lo, 1) + ", " + fixed(100 * ci.hi, 1) + "]";
}

struct ExampleOutcome {
    bool met = false;
    std::string line;
};

// Target 1: a front design with Δ > 0 (its CI above 0) at no more cost than the example, or one at least 30 %
// cheaper whose Δ CI includes 0 (or lies above it).
ExampleOutcome judgeExample(const DesignSearch::Result& r)
{
    ExampleOutcome o;
    const auto& designs = r.test->designs;
    const double baseCost = designs[0].meanCostUsd;
    const DesignSummary* best = nullptr;
    std::string how;
    for (size_t d = 0; d < designs.size(); ++d) {
        const int candidate = r.testCandidates[d];
        if (candidate == 0 || r.candidates[size_t(candidate - 1)].asDrawn() || !designs[d].vsBaseline)
            continue;
        const auto& p = *designs[d].vsBaseline;
        const bool better = p.accuracyDeltaCi.lo > 0 && designs[d].meanCostUsd <= baseCost;
        const bool cheaper = designs[d].meanCostUsd <= 0.7 * baseCost && p.accuracyDeltaCi.hi >= 0;
        if (!better && !cheaper)
            continue;
        if (!best || (better && (how != "better" || p.accuracyDelta > best->vsBaseline->accuracyDelta))) {
            best = &designs[d];
            how = better ? "better" : "cheaper";
        }
    }
    if (best) {
        o.met = true;
        o.line = how + ": " + best->name + ", delta " + (best->vsBaseline->accuracyDelta >= 0 ? "+" : "") +
                 pct(best->vsBaseline->accuracyDelta) + " pt " + ciPt(best->vsBaseline->accuracyDeltaCi) + " at x" +
                 fixed(best->vsBaseline->costRatio.value_or(0), 2) + " its cost";
    } else {
        o.line = "no front design beats it on test at its cost, nor matches it 30 % cheaper";
    }
    return o;
}

struct Reference {
    bool met = false;
    double delta = -2; // the met design's Δ against the reference
    std::string line;
};

// Target 2: against the frontier model alone (a reference on test): Δ CI includes 0 or lies above, at ≤ 15 % of its cost.
Reference judgeReference(const DesignSearch::Result& r, const std::string& example)
{
    Reference best;
    size_t ref = r.testDesigns.size();
    for (size_t d = 0; d < r.testCandidates.size(); ++d) {
        if (r.testCandidates[d] == 0)
            ref = d;
    }
    if (ref == r.testDesigns.size())
        return best;
    const auto summary = ExperimentStats::summarize(r.testDesigns, int(ref), r.testRecords);
    const double refCost = summary.designs[ref].meanCostUsd;
    double bestDelta = -2;
    for (size_t d = 0; d < summary.designs.size(); ++d) {
        const int candidate = r.testCandidates[d];
        if (candidate == 0 || !summary.designs[d].vsBaseline)
            continue;
        const auto& p = *summary.designs[d].vsBaseline;
        if (p.accuracyDeltaCi.hi >= 0 && summary.designs[d].meanCostUsd <= 0.15 * refCost &&
            p.accuracyDelta > bestDelta) {
            bestDelta = p.accuracyDelta;
            best.met = true;
            best.delta = p.accuracyDelta;
            best.line = example + ": " + summary.designs[d].name + ", delta " + (p.accuracyDelta >= 0 ? "+" : "") +
                        pct(p.accuracyDelta) + " pt " + ciPt(p.accuracyDeltaCi) + " at " +
                        fixed(100 * summary.designs[d].meanCostUsd / refCost, 1) + " % of its cost";
        }
    }
    return best;
}

// Target 4: a space of at most 200 variants searched with a quarter of the grid's trials.
int gridBench(const CliContext& context, Engine& engine, const std::string& name, const SearchBase& base,
              std::vector<std::string> flags, std::shared_ptr<const TaskSet> tasks)
{
    // The proposed fields in order, each kept while the grid stays within 200 variants.
    std::string error;
    std::optional<SearchSpace> space;
    std::vector<std::string> kept;
    for (const auto& flag : flags) {
        kept.push_back(flag);
        auto tried = SearchSpace::fromFlags(kept, {base}, error, {});
        if (tried && tried->size() <= 200)
            space = std::move(tried);
        else
            kept.pop_back();
    }
    if (!space || space->parameters().size() < 2) {
        context.out << "  " << name << ": its proposed space has no part of 2 fields within 200 variants\n";
        return kExitOk;
    }
    DesignSearch::Options options;
    const auto parts = DesignSearch::split(*tasks, options.split, options.seed, {}, error);
    if (!parts) {
        context.err << "bench search: " << error << '\n';
        return kExitFailed;
    }
    std::vector<const Task*> selected;
    for (const size_t t : parts->search)
        selected.push_back(&tasks->tasks()[t]);
    const auto points = space->grid(200);
    ExperimentSpec spec;
    spec.name = "bench search grid";
    std::map<std::string, size_t> index;
    for (const auto& point : points) {
        auto variant = space->variant(point, error);
        if (!variant) {
            context.err << "bench search: " << error << '\n';
            return kExitFailed;
        }
        index[SearchSpace::key(point)] = spec.designs.size();
        spec.designs.push_back(makeDesign("g" + std::to_string(spec.designs.size()), base.file, variant->team));
    }
    spec.tasksetName = "search part";
    spec.tasks = std::make_shared<const TaskSet>(tasks->subset(selected));
    spec.seeds = options.trialSeeds;
    spec.clock = ClockRequest::Virtual;
    const auto grid = TrialSummaries::evaluate(engine, spec, error);
    if (!grid) {
        context.err << "bench search: " << error << '\n';
        return kExitFailed;
    }
    const int64_t gridTrials = int64_t(points.size() * selected.size() * spec.seeds.size());
    double aLo = 1;
    double aHi = 0;
    double cLo = 1e300;
    double cHi = 0;
    for (const auto& d : grid->designs) {
        aLo = std::min(aLo, d.overall.accuracy);
        aHi = std::max(aHi, d.overall.accuracy);
        cLo = std::min(cLo, d.meanCostUsd);
        cHi = std::max(cHi, d.meanCostUsd);
    }
    const auto point = [&](const DesignSummary& d) {
        return Hypervolume::Point{Hypervolume::normalised(d.overall.accuracy, aLo, aHi),
                                  Hypervolume::normalised(d.meanCostUsd, cLo, cHi)};
    };
    std::vector<Hypervolume::Point> all;
    for (const auto& d : grid->designs)
        all.push_back(point(d));
    const Hypervolume::Point reference{0, 1.1};
    const double gridHv = Hypervolume::of(all, reference);

    options.budgetTrials = gridTrials / 4;
    options.objectives = {Objective::Accuracy, Objective::Cost};
    DesignSearch search(engine, *space, tasks, options);
    const auto result = search.run();
    if (result.status == DesignSearch::Status::Failed) {
        context.err << "bench search: " << result.error << '\n';
        return kExitFailed;
    }
    std::vector<Hypervolume::Point> found;
    for (const int id : result.searchFront)
        found.push_back(point(grid->designs[index.at(result.candidates[size_t(id - 1)].key)]));
    const double foundHv = Hypervolume::of(found, reference);
    const double share = gridHv > 0 ? foundHv / gridHv : 0;
    const double trialShare = double(result.searchTrials) / double(gridTrials);
    context.out << "  " << name << " (" << space->parameters().size() << " fields, " << points.size()
                << " variants): grid " << gridTrials << " trials, hypervolume " << fixed(gridHv, 4) << "; search "
                << result.searchTrials << " trials (" << fixed(100 * trialShare, 1) << " %), its front's hypervolume "
                << fixed(foundHv, 4) << " = " << fixed(100 * share, 1) << " % of the grid's (target >= 95 % with <= 25 %) "
                << (share >= 0.95 && trialShare <= 0.25 ? "ok" : "MISSED") << '\n';
    return kExitOk;
}

} // namespace

int searchBench(const CliContext& context, Engine& engine, const BenchArgs& args)
{
    std::string error;
    const auto tasks = bundledTasks(*context.resources, error);
    if (!tasks) {
        context.err << "bench search: " << error << '\n';
        return kExitFailed;
    }
    std::vector<fs::path> examples;
    for (const auto& entry : fs::directory_iterator(*context.resources / "examples")) {
        if (entry.path().string().ends_with(".team.json"))
            examples.push_back(entry.path());
    }
    std::sort(examples.begin(), examples.end());
    const auto alone = *teamFromJsonText(kAlone).team;
    context.out << "search, on the SIMULATOR (local-moe): each example from the space SpaceProposal offers, "
                << tasks->tasks().size() << " bundled tasks split 0.5/0.25/0.25 (seed 1), 1 seed; budget "
                << kBudgetTrials << " search trials or " << fixed(kBudgetSeconds, 0) << " s; " << kFrontier
                << " alone measured on each test part as a reference\n";
    int met = 0;
    int searched = 0;
    int64_t trials = 0;
    double seconds = 0;
    std::vector<double> throughput;
    Reference bestReference;
    std::vector<std::pair<std::string, SearchBase>> bases;
    for (const auto& file : examples) {
        auto loaded = loadTeamFile(file);
        if (!loaded.team) {
            context.err << "bench search: " << file.string() << " does not load\n";
            return kExitFailed;
        }
        const auto name = file.filename().string().substr(0, file.filename().string().size() - 10);
        SearchBase base{file.string(), file.string(), std::move(*loaded.team)};
        const auto flags = SpaceProposal::flags(base.team, file.parent_path(), engine.resources().localModels);
        bases.emplace_back(name, base);
        auto space = SearchSpace::fromFlags(flags, {base}, error);
        if (!space) {
            context.err << "bench search: " << name << ": " << error << '\n';
            return kExitFailed;
        }
        DesignSearch::Options options;
        options.budgetTrials = kBudgetTrials;
        options.budgetSeconds = kBudgetSeconds;
        options.references = {{"", "", alone}};
        DesignSearch search(engine, *space, tasks, options);
        const auto result = search.run();
        if (result.status != DesignSearch::Status::Finished || !result.test) {
            context.err << "bench search: " << name << ": " << (result.error.empty() ? result.note : result.error) << '\n';
            return kExitFailed;
        }
        ++searched;
        const auto outcome = judgeExample(result);
        met += outcome.met ? 1 : 0;
        const int64_t all = result.searchTrials + result.validationTrials + result.testTrials;
        trials += all;
        seconds += result.seconds;
        throughput.push_back(double(all) / result.seconds);
        context.out << "  " << name << ": " << flags.size() << " fields, " << fixed(space->size(), 0) << " points; "
                    << result.candidates.size() << " candidates, " << result.front.size() << " on the front; " << all
                    << " trials in " << fixed(result.seconds, 1) << " s (" << fixed(double(all) / result.seconds, 0)
                    << "/s); test: " << (outcome.met ? "ok, " : "MISSED, ") << outcome.line << '\n';
        auto reference = judgeReference(result, name);
        if (reference.met && (!bestReference.met || reference.delta > bestReference.delta))
            bestReference = reference;
    }
    context.out << "  target: a better or a 30 % cheaper design for >= 6 of the " << searched << " examples: " << met
                << " - " << (met >= 6 ? "ok" : "MISSED") << '\n';
    context.out << "  target: a design within the CI of " << kFrontier << " alone at <= 15 % of its cost: "
                << (bestReference.met ? "ok, " + bestReference.line : std::string("MISSED")) << '\n';
    context.out << "  target: >= 10,000 simulated trials/s while searching: " << fixed(double(trials) / seconds, 0)
                << " trials/s over all " << searched << " searches (" << trials << " trials in " << fixed(seconds, 1)
                << " s) - " << (double(trials) / seconds >= 10000 ? "ok" : "MISSED") << "\n\n";

    context.out << "search against an exhaustive grid (accuracy and cost normalised by the grid's ranges, reference "
                   "point (0, 1.1), the grid's own measurements on the search part):\n";
    for (const auto& [name, base] : bases) {
        if (name != "triage" && name != "cascade" && name != "mixture-of-agents" && name != "debate" && name != "mosaic")
            continue;
        const auto flags = SpaceProposal::flags(base.team, fs::path(base.path).parent_path(), engine.resources().localModels);
        if (const int code = gridBench(context, engine, name, base, flags, tasks); code != kExitOk)
            return code;
    }
    context.out << '\n';
    return searchWorldBench(context, engine.resources(), args);
}

} // namespace conclave::cli
