#include "conclave/search/DesignSearchState.h"

#include "conclave/experiment/TrialSummaries.h"
#include "conclave/session/Engine.h"

#include <algorithm>
#include <cmath>

namespace conclave {

namespace {

constexpr size_t kMinRungTasks = 30;
constexpr int kMaxRungs = 4;
constexpr double kFamilyAlpha = 0.05;

} // namespace

bool DesignSearch::State::halted()
{
    if (stopping.load())
        return true;
    if (options.budgetSeconds && elapsed() >= *options.budgetSeconds) {
        if (result.note.empty())
            result.note = "budget of " + std::to_string(int64_t(*options.budgetSeconds)) + " s reached";
        return true;
    }
    return false;
}

int DesignSearch::State::propose(const SearchSpace::Point& point)
{
    const auto key = SearchSpace::key(point);
    if (byKey.count(key))
        return 0;
    SearchCandidate c;
    c.id = int(result.candidates.size()) + 1;
    c.point = point;
    c.key = key;
    c.generation = generation;
    std::string problem;
    auto variant = space.variant(point, problem);
    std::shared_ptr<const ExperimentDesign> design;
    if (variant) {
        c.name = c.asDrawn() ? space.bases()[point.base].team.name : variant->name;
        c.parameters = variant->parameters;
        auto made = makeDesign("c" + std::to_string(c.id), space.bases()[point.base].file,
                               std::move(variant->team));
        c.teamJson = made.teamJson;
        design = std::make_shared<const ExperimentDesign>(std::move(made));
    } else {
        c.name = space.bases()[point.base].team.name + SweepSpec::suffix(space.parametersOf(point));
        c.parameters = space.parametersOf(point);
        c.status = CandidateStatus::Dropped;
        c.why = "does not validate: " + problem;
    }
    byKey[key] = c.id;
    result.candidates.push_back(std::move(c));
    designs.push_back(std::move(design));
    trials.emplace_back(tasks->tasks().size(), options.trialSeeds.size());
    counted.emplace_back(tasks->tasks().size(), false);
    dirty.push_back(true);
    rungFigures.emplace_back();
    // What an earlier run of this search kept of it.
    if (const auto it = kept.find(key); it != kept.end()) {
        for (const auto& k : it->second) {
            const auto t = taskIndex.find(k.task);
            const auto s = std::find(options.trialSeeds.begin(), options.trialSeeds.end(), k.seed);
            if (t != taskIndex.end() && s != options.trialSeeds.end())
                trials.back().set(t->second, size_t(s - options.trialSeeds.begin()), k.cell);
        }
    }
    return result.candidates.back().id;
}

void DesignSearch::State::flushJournal()
{
    if (!journal)
        return;
    std::vector<const SearchCandidate*> changed;
    for (size_t i = 0; i < dirty.size(); ++i) {
        if (dirty[i]) {
            changed.push_back(&result.candidates[i]);
            dirty[i] = false;
        }
    }
    if (!changed.empty())
        journal->candidates(changed);
}

void DesignSearch::State::drop(int id, int by, std::string why)
{
    auto& c = candidate(id);
    c.status = CandidateStatus::Dropped;
    c.droppedBy = by;
    c.why = std::move(why);
    dirty[size_t(id - 1)] = true;
}

// Runs what `ids` lack of `taskList` (every seed); false when the budget or a stop ended it first.
bool DesignSearch::State::evaluate(const std::vector<int>& ids, const std::vector<size_t>& taskList, std::string_view part,
              int64_t* spent)
{
    if (halted())
        return false;
    int64_t newly = 0;
    for (const int id : ids) {
        for (const size_t t : taskList)
            newly += counted[size_t(id - 1)][t] ? 0 : int64_t(options.trialSeeds.size());
    }
    if (part == "search" && options.budgetTrials && result.searchTrials + newly > *options.budgetTrials) {
        if (result.note.empty())
            result.note = "budget of " + std::to_string(*options.budgetTrials) + " trials reached";
        return false;
    }
    // Group the candidates by the tasks they still need; what they have and did not count came
    // from an earlier run of this search.
    std::map<std::vector<size_t>, std::vector<int>> groups;
    int64_t keptNow = 0;
    for (const int id : ids) {
        std::vector<size_t> missing;
        for (const size_t t : taskList) {
            if (!trials[size_t(id - 1)].has(t))
                missing.push_back(t);
            else if (!counted[size_t(id - 1)][t])
                keptNow += int64_t(options.trialSeeds.size());
        }
        if (!missing.empty())
            groups[missing].push_back(id);
    }
    for (const auto& [missing, group] : groups) {
        if (!runGroup(group, missing, part))
            return false;
    }
    for (const int id : ids) {
        for (const size_t t : taskList) {
            if (!counted[size_t(id - 1)][t]) {
                counted[size_t(id - 1)][t] = true;
                *spent += int64_t(options.trialSeeds.size());
            }
        }
    }
    result.keptTrials += keptNow;
    return true;
}

bool DesignSearch::State::runGroup(const std::vector<int>& group, const std::vector<size_t>& missing, std::string_view part)
{
    ExperimentSpec spec;
    spec.name = "design search";
    for (const int id : group)
        spec.designs.push_back(*designs[size_t(id - 1)]);
    std::vector<const Task*> selected;
    for (const size_t t : missing)
        selected.push_back(&tasks->tasks()[t]);
    spec.tasksetName = "search";
    spec.tasks = std::make_shared<const TaskSet>(tasks->subset(selected));
    spec.seeds = options.trialSeeds;
    spec.clock = ClockRequest::Virtual;
    TrialSummaries sink;
    ExperimentRunner::Options runOptions;
    runOptions.concurrency = options.concurrency;
    runOptions.virtualClockOnly = true;
    ExperimentRunner runner(engine, sink, spec, runOptions);
    {
        std::lock_guard lock(stopMutex);
        if (stopping.load())
            return false;
        inFlight = &runner;
    }
    const auto outcome = runner.run();
    {
        std::lock_guard lock(stopMutex);
        inFlight = nullptr;
    }
    if (!outcome.error.empty()) {
        result.status = Status::Failed;
        result.error = outcome.error;
        stopping.store(true);
        return false;
    }
    if (outcome.status != ExperimentStatus::Finished)
        return false;
    std::map<int, std::vector<SearchJournal::KeptTrial>> journaled;
    for (const auto& trial : sink.kept(runner.id())) {
        const int id = group[size_t(trial.design)];
        const auto t = taskIndex.at(trial.task);
        const auto s = size_t(std::find(options.trialSeeds.begin(), options.trialSeeds.end(), trial.seed) -
                              options.trialSeeds.begin());
        const auto cell = TrialCell::of(trial);
        trials[size_t(id - 1)].set(t, s, cell);
        if (journal)
            journaled[id].push_back({trial.task, trial.seed, cell});
    }
    for (auto& [id, rows] : journaled)
        journal->trials(candidate(id), part, rows);
    return true;
}

std::vector<size_t> DesignSearch::State::prefix(size_t rung) const
{
    const auto& all = result.parts.search;
    return std::vector<size_t>(all.begin(), all.begin() + std::ptrdiff_t(result.rungTasks[rung]));
}

// The candidates still searched that got to `rung` (twins are not).
std::vector<int> DesignSearch::State::atRung(int rung) const
{
    std::vector<int> out;
    for (const auto& c : result.candidates) {
        if (c.status != CandidateStatus::Dropped && c.twinOf == 0 && c.rung >= rung)
            out.push_back(c.id);
    }
    return out;
}

// Takes `batch` through the rungs from `from` on; false when the budget or a stop ended it first.
bool DesignSearch::State::halve(std::vector<int> batch, size_t from)
{
    const size_t rungs = result.rungTasks.size();
    for (size_t r = from; r < rungs && !batch.empty(); ++r) {
        const auto taskList = prefix(r);
        if (!evaluate(batch, taskList, "search", &result.searchTrials))
            return false;
        for (const int id : batch) {
            auto& c = candidate(id);
            c.rung = std::max(c.rung, int(r));
            dirty[size_t(id - 1)] = true;
            auto& f = rungFigures[size_t(id - 1)];
            if (f.size() < r + 1)
                f.resize(r + 1);
            f[r] = trials[size_t(id - 1)].figures(taskList);
        }
        const auto figureAt = [&](int id) -> const ObjectiveFigures& { return rungFigures[size_t(id - 1)][r]; };
        // A candidate that came out exactly as an earlier one on every trial is that one's twin.
        std::vector<int> distinct;
        for (const int id : batch) {
            for (const int other : atRung(int(r))) {
                if (other < id && trials[size_t(other - 1)].sameAs(trials[size_t(id - 1)], taskList)) {
                    auto& c = candidate(id);
                    c.twinOf = other;
                    c.why = "came out exactly as #" + std::to_string(other) + " on every trial of rung " +
                            std::to_string(r) + " (" + std::to_string(taskList.size()) +
                            " tasks): not run further";
                    break;
                }
            }
            if (candidate(id).twinOf == 0)
                distinct.push_back(id);
        }
        batch = std::move(distinct);
        auto pool = atRung(int(r));
        // Drops `loser` when `winner` (not dropped) is no worse on every point estimate and
        // shown better on one; says whether it did.
        const auto dropWhenShown = [&](int loser, int winner) {
            if (candidate(winner).status == CandidateStatus::Dropped ||
                !CandidateDominance::dominates(figureAt(winner), figureAt(loser), options.objectives))
                return false;
            auto evidence = CandidateDominance::shown(trials[size_t(winner - 1)], trials[size_t(loser - 1)], taskList,
                                                      options.objectives, result.level,
                                                      comparisonSeed(winner, loser, r));
            if (evidence)
                drop(loser, winner, "rung " + std::to_string(r) + ": #" + std::to_string(winner) + " " + *evidence);
            return bool(evidence);
        };
        // A new candidate another is shown better than is dropped.
        for (const int id : batch) {
            for (const int other : pool) {
                if (other != id && dropWhenShown(id, other))
                    break;
            }
        }
        // At the top rung, a new candidate may also drop one that got there before.
        if (r + 1 == rungs) {
            for (const int old : pool) {
                if (candidate(old).status == CandidateStatus::Dropped ||
                    std::find(batch.begin(), batch.end(), old) != batch.end())
                    continue;
                for (const int id : batch) {
                    if (dropWhenShown(old, id))
                        break;
                }
            }
        }
        // A twin goes with its original: shown worse alike.
        for (auto& c : result.candidates) {
            if (c.twinOf == 0 || c.status == CandidateStatus::Dropped)
                continue;
            const auto& original = candidate(c.twinOf);
            if (original.status == CandidateStatus::Dropped) {
                const int by = original.droppedBy;
                const std::string why = "came out exactly as #" + std::to_string(original.id) + ", dropped: " +
                                        original.why;
                drop(c.id, by, why);
            }
        }
        flushJournal();
        report("generation " + std::to_string(generation) + ", rung " + std::to_string(r + 1) + " of " +
               std::to_string(rungs));
        if (r + 1 == rungs)
            break;
        batch = promote(batch, r);
    }
    return true;
}

// Of `batch` (evaluated at rung r), those going on to rung r + 1: the ones no candidate at r beats on
// point estimates, and the best 1/η by NSGA-II rank and crowding among them (at least one), by id.
std::vector<int> DesignSearch::State::promote(const std::vector<int>& batch, size_t r) const
{
    const auto pool = atRung(int(r));
    std::vector<ObjectiveFigures> poolFigures;
    for (const int id : pool)
        poolFigures.push_back(rungFigures[size_t(id - 1)][r]);
    const auto ranked = rank(poolFigures);
    const auto& front = ranked.front;
    const auto& crowding = ranked.crowding;
    std::vector<size_t> survivors;
    for (size_t i = 0; i < pool.size(); ++i) {
        if (std::find(batch.begin(), batch.end(), pool[i]) != batch.end())
            survivors.push_back(i);
    }
    std::sort(survivors.begin(), survivors.end(), [&](size_t a, size_t b) {
        if (front[a] != front[b])
            return front[a] < front[b];
        if (crowding[a] != crowding[b])
            return crowding[a] > crowding[b];
        return pool[a] < pool[b];
    });
    const size_t keep = (survivors.size() + size_t(options.eta) - 1) / size_t(options.eta);
    std::vector<int> promoted;
    for (size_t k = 0; k < survivors.size(); ++k) {
        if (k < keep || front[survivors[k]] == 0)
            promoted.push_back(pool[survivors[k]]);
    }
    std::sort(promoted.begin(), promoted.end());
    return promoted;
}

// When every point was proposed: the parked candidates of the highest rung any is parked at, promoted
// as if that rung had just been measured (at least one goes on, so the search always moves), and the
// rung they go on to. Empty when none is parked.
std::pair<std::vector<int>, size_t> DesignSearch::State::parkedBatch()
{
    int highest = -1;
    const auto waiting = parked();
    for (const int id : waiting)
        highest = std::max(highest, result.candidates[size_t(id - 1)].rung);
    std::vector<int> batch;
    for (const int id : waiting) {
        auto& c = candidate(id);
        if (c.rung != highest)
            continue;
        // A twin is measured again on its own: it may part from its original on the next rung's tasks.
        if (c.twinOf != 0) {
            c.twinOf = 0;
            c.why.clear();
            dirty[size_t(id - 1)] = true;
        }
        batch.push_back(id);
    }
    if (batch.empty())
        return {};
    return {promote(batch, size_t(highest)), size_t(highest) + 1};
}

// The candidates still searched that stopped below the top rung, not promoted, and the twins whose
// original went further (a field may change nothing on some tasks and something on others).
std::vector<int> DesignSearch::State::parked() const
{
    std::vector<int> out;
    const int top = int(result.rungTasks.size()) - 1;
    for (const auto& c : result.candidates) {
        if (c.status == CandidateStatus::Dropped || c.rung < 0 || c.rung >= top || !designs[size_t(c.id - 1)])
            continue;
        if (c.twinOf == 0 || result.candidates[size_t(c.twinOf - 1)].rung > c.rung)
            out.push_back(c.id);
    }
    return out;
}

std::vector<SearchSpace::Point> DesignSearch::State::offspring(size_t count)
{
    // Parents: the candidates at the top rung (or the highest any reached), by rank and crowding.
    auto pool = atRung(int(result.rungTasks.size()) - 1);
    for (int r = int(result.rungTasks.size()) - 2; r >= 0 && pool.empty(); --r)
        pool = atRung(r);
    std::vector<SearchSpace::Point> parents;
    std::vector<ObjectiveFigures> figures;
    for (const int id : pool) {
        parents.push_back(candidate(id).point);
        figures.push_back(rungFigures[size_t(id - 1)].back());
    }
    return proposals.offspring(parents, rank(figures), count, options.seed * 1000003ull + uint64_t(generation),
                               [this](const std::string& key) { return byKey.count(key) > 0; });
}

void DesignSearch::State::run()
{
    started = Clock::now();
    for (size_t t = 0; t < tasks->tasks().size(); ++t)
        taskIndex[tasks->tasks()[t].id] = t;
    if (journal)
        kept = journal->kept();
    // The rungs: R prefixes of the search part growing by η, the last the whole part.
    const size_t n = result.parts.search.size();
    int rungs = 1;
    while (rungs < kMaxRungs && double(n) / std::pow(double(options.eta), rungs) >= double(kMinRungTasks))
        ++rungs;
    for (int r = 0; r < rungs; ++r) {
        const double share = std::pow(double(options.eta), double(rungs - 1 - r));
        result.rungTasks.push_back(std::max<size_t>(1, size_t(std::ceil(double(n) / share))));
    }
    result.level = 1 - kFamilyAlpha / double(rungs);

    size_t population = options.population;
    if (population == 0) {
        population = std::clamp<size_t>(4 * (space.parameters().size() + space.bases().size()), 8, 32);
    }
    population = size_t(std::min(double(population), space.size()));

    // Generation 0: the bases as drawn, then quasi-random points.
    std::vector<int> batch;
    for (size_t b = 0; b < space.bases().size(); ++b) {
        const int id = propose({b, std::vector<int>(space.parameters().size(), SearchSpace::kBaseValue)});
        if (id > 0)
            batch.push_back(id);
    }
    for (size_t attempt = 0; batch.size() < population && attempt < 50 * population; ++attempt) {
        if (const int id = propose(proposals.nextHalton()); id > 0)
            batch.push_back(id);
    }
    size_t from = 0;
    while (true) {
        std::vector<int> runnable;
        for (const int id : batch) {
            if (designs[size_t(id - 1)])
                runnable.push_back(id);
        }
        flushJournal();
        if (!halve(runnable, from))
            break;
        from = 0;
        result.generations = generation + 1;
        ++generation;
        batch.clear();
        if (double(result.candidates.size()) < space.size()) {
            for (const auto& point : offspring(population)) {
                if (const int id = propose(point); id > 0)
                    batch.push_back(id);
            }
        }
        if (batch.empty()) {
            // Every point proposed: what budget is left takes the candidates parked below the top rung
            // further, the best 1/η of them a rung at a time, as successive halving would have.
            result.exhausted = double(result.candidates.size()) >= space.size();
            std::tie(batch, from) = parkedBatch();
            if (batch.empty())
                break;
        }
    }
    flushJournal();
    if (result.status == Status::Failed)
        return;
    if (stopping.load()) {
        result.status = Status::Stopped;
        result.note = stopWhy;
        result.searchFront = currentSearchFront();
        for (const int id : result.searchFront)
            result.searchFigures[id] = trials[size_t(id - 1)].figures(result.parts.search);
        return;
    }
    // A search ended by its budget still measures its front on validation and test.
    const auto budgetSeconds = options.budgetSeconds;
    options.budgetSeconds.reset();
    chooseAndTest();
    options.budgetSeconds = budgetSeconds;
    if (stopping.load() && result.status != Status::Failed) {
        result.status = Status::Stopped;
        result.note = stopWhy;
    }
}
} // namespace conclave
