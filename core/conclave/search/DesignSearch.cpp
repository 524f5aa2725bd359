#include "conclave/search/DesignSearch.h"

#include "conclave/engine/DeterministicRandom.h"
#include "conclave/experiment/ExperimentRunner.h"
#include "conclave/experiment/ExperimentSpec.h"
#include "conclave/experiment/TaskSplit.h"
#include "conclave/experiment/TrainedTasks.h"
#include "conclave/experiment/TrialSummaries.h"
#include "conclave/search/SearchJournal.h"
#include "conclave/session/Engine.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <mutex>

namespace conclave {

namespace fs = std::filesystem;

namespace {

using Clock = std::chrono::steady_clock;

constexpr size_t kMinRungTasks = 30;
constexpr int kMaxRungs = 4;
constexpr double kFamilyAlpha = 0.05;

// The proposals' random numbers: splitmix64 from the search's seed and the generation.
class Draws {
public:
    explicit Draws(uint64_t seed) : m_state(DeterministicRandom::mix(seed)) {}
    uint64_t next() { return m_state = DeterministicRandom::mix(m_state); }
    double unit() { return double(next() >> 11) * 0x1.0p-53; }
    size_t below(size_t n) { return n == 0 ? 0 : size_t(next() % n); }

private:
    uint64_t m_state;
};

// The radical inverse of i in base b: the Halton sequence's i-th coordinate
// (J. H. Halton, "On the efficiency of certain quasi-random sequences of
// points in evaluating multi-dimensional integrals", Numer. Math. 2, 1960).
double radicalInverse(uint64_t i, uint64_t base)
{
    double result = 0;
    double f = 1.0 / double(base);
    while (i > 0) {
        result += f * double(i % base);
        i /= base;
        f /= double(base);
    }
    return result;
}

uint64_t prime(size_t index)
{
    static const uint64_t primes[] = {2,  3,  5,  7,  11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59,
                                      61, 67, 71, 73, 79, 83, 89, 97, 101, 103, 107, 109, 113, 127, 131};
    return primes[index % (sizeof primes / sizeof primes[0])];
}

std::string folderOf(const std::string& path)
{
    return path.empty() ? std::string() : fs::path(path).parent_path().string();
}

} // namespace

struct DesignSearch::State {
    Engine& engine;
    const SearchSpace& space;
    std::shared_ptr<const TaskSet> tasks;
    Options options;
    std::function<void(const Progress&)> onProgress;
    SearchJournal* journal = nullptr;

    std::mutex stopMutex;
    std::atomic<bool> stopping{false};
    std::string stopWhy;
    ExperimentRunner* inFlight = nullptr;

    Clock::time_point started;
    Result result;
    std::vector<std::shared_ptr<const ExperimentDesign>> designs; // per candidate (index id − 1), null if invalid
    std::vector<CandidateTrials> trials;                          // per candidate
    std::vector<std::vector<bool>> counted;                       // per candidate, per task: counted against the budget
    std::vector<bool> dirty;
    std::map<std::string, int> byKey;
    std::map<std::string, std::vector<SearchJournal::KeptTrial>> kept;
    std::map<std::string, size_t> taskIndex;
    std::vector<std::vector<ObjectiveFigures>> rungFigures; // [candidate][rung], filled when it reaches the rung
    uint64_t haltonIndex = 0;
    int generation = 0;

    State(Engine& e, const SearchSpace& s, std::shared_ptr<const TaskSet> t, Options o)
        : engine(e), space(s), tasks(std::move(t)), options(std::move(o))
    {
    }

    SearchCandidate& candidate(int id) { return result.candidates[size_t(id - 1)]; }
    double elapsed() const { return std::chrono::duration<double>(Clock::now() - started).count(); }

    bool halted()
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

    // ---- candidates ----

    int propose(const SearchSpace::Point& point)
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

    void flushJournal()
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

    void drop(int id, int by, std::string why)
    {
        auto& c = candidate(id);
        c.status = CandidateStatus::Dropped;
        c.droppedBy = by;
        c.why = std::move(why);
        dirty[size_t(id - 1)] = true;
    }

    // ---- evaluation ----

    // Runs what `ids` lack of `taskList` (every seed); false when the budget or a stop ended it first.
    bool evaluate(const std::vector<int>& ids, const std::vector<size_t>& taskList, std::string_view part,
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

    bool runGroup(const std::vector<int>& group, const std::vector<size_t>& missing, std::string_view part)
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

    std::vector<size_t> prefix(size_t rung) const
    {
        const auto& all = result.parts.search;
        return std::vector<size_t>(all.begin(), all.begin() + std::ptrdiff_t(result.rungTasks[rung]));
    }

    // ---- ranking ----

    // NSGA-II's non-dominated sorting and crowding distance (K. Deb et al., "A fast and elitist
    // multiobjective genetic algorithm: NSGA-II", IEEE TEC 6(2), 2002): per point, its front
    // (0 best) and its crowding distance within that front.
    std::pair<std::vector<int>, std::vector<double>> rank(const std::vector<ObjectiveFigures>& figures) const
    {
        const size_t n = figures.size();
        std::vector<int> front(n, -1);
        std::vector<double> crowding(n, 0);
        size_t placed = 0;
        for (int level = 0; placed < n; ++level) {
            std::vector<size_t> members;
            for (size_t i = 0; i < n; ++i) {
                if (front[i] != -1)
                    continue;
                bool dominated = false;
                for (size_t j = 0; j < n && !dominated; ++j) {
                    dominated = j != i && (front[j] == -1 || front[j] == level) &&
                                CandidateDominance::dominates(figures[j], figures[i], options.objectives);
                }
                if (!dominated)
                    members.push_back(i);
            }
            for (const size_t i : members)
                front[i] = level;
            placed += members.size();
            for (const auto o : options.objectives) {
                auto sorted = members;
                std::sort(sorted.begin(), sorted.end(),
                          [&](size_t a, size_t b) { return figures[a][o] < figures[b][o]; });
                if (sorted.empty())
                    continue;
                const double span = figures[sorted.back()][o] - figures[sorted.front()][o];
                crowding[sorted.front()] = crowding[sorted.back()] = std::numeric_limits<double>::infinity();
                for (size_t k = 1; k + 1 < sorted.size(); ++k) {
                    if (span > 0)
                        crowding[sorted[k]] += (figures[sorted[k + 1]][o] - figures[sorted[k - 1]][o]) / span;
                }
            }
        }
        return {front, crowding};
    }

    bool feasible(const ObjectiveFigures& f) const
    {
        for (const auto& c : options.constraints) {
            if (!c.met(f[c.objective]))
                return false;
        }
        return true;
    }

    // The candidates of `ids` no other of them dominates on point estimates, among those meeting every
    // constraint (among all when none does).
    std::vector<int> nonDominated(const std::vector<int>& ids, const std::map<int, ObjectiveFigures>& figures) const
    {
        std::vector<int> pool;
        for (const int id : ids) {
            if (feasible(figures.at(id)))
                pool.push_back(id);
        }
        if (pool.empty())
            pool = ids;
        std::vector<int> out;
        for (const int id : pool) {
            bool dominated = false;
            for (const int other : pool) {
                dominated = dominated ||
                            (other != id &&
                             CandidateDominance::dominates(figures.at(other), figures.at(id), options.objectives));
            }
            if (!dominated)
                out.push_back(id);
        }
        return out;
    }

    // The candidates still searched that got to `rung` (twins are not).
    std::vector<int> atRung(int rung) const
    {
        std::vector<int> out;
        for (const auto& c : result.candidates) {
            if (c.status != CandidateStatus::Dropped && c.twinOf == 0 && c.rung >= rung)
                out.push_back(c.id);
        }
        return out;
    }

    // ---- one generation: successive halving of its new candidates ----

    uint64_t comparisonSeed(int a, int b, size_t rung) const
    {
        return DeterministicRandom::mix(options.seed ^ (uint64_t(a) << 40) ^ (uint64_t(b) << 16) ^ rung);
    }

    // Takes `batch` through the rungs from `from` on; false when the budget or a stop ended it first.
    bool halve(std::vector<int> batch, size_t from = 0)
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
            // A new candidate another is shown better than is dropped.
            for (const int id : batch) {
                for (const int other : pool) {
                    if (other == id || candidate(other).status == CandidateStatus::Dropped)
                        continue;
                    if (!CandidateDominance::dominates(figureAt(other), figureAt(id), options.objectives))
                        continue;
                    auto evidence = CandidateDominance::shown(trials[size_t(other - 1)], trials[size_t(id - 1)],
                                                              taskList, options.objectives, result.level,
                                                              comparisonSeed(other, id, r));
                    if (evidence) {
                        drop(id, other, "rung " + std::to_string(r) + ": #" + std::to_string(other) + " " + *evidence);
                        break;
                    }
                }
            }
            // At the top rung, a new candidate may also drop one that got there before.
            if (r + 1 == rungs) {
                for (const int old : pool) {
                    if (candidate(old).status == CandidateStatus::Dropped ||
                        std::find(batch.begin(), batch.end(), old) != batch.end())
                        continue;
                    for (const int id : batch) {
                        if (candidate(id).status == CandidateStatus::Dropped ||
                            !CandidateDominance::dominates(figureAt(id), figureAt(old), options.objectives))
                            continue;
                        auto evidence = CandidateDominance::shown(trials[size_t(id - 1)], trials[size_t(old - 1)],
                                                                  taskList, options.objectives, result.level,
                                                                  comparisonSeed(id, old, r));
                        if (evidence) {
                            drop(old, id, "rung " + std::to_string(r) + ": #" + std::to_string(id) + " " + *evidence);
                            break;
                        }
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
    std::vector<int> promote(const std::vector<int>& batch, size_t r) const
    {
        const auto pool = atRung(int(r));
        std::vector<ObjectiveFigures> poolFigures;
        for (const int id : pool)
            poolFigures.push_back(rungFigures[size_t(id - 1)][r]);
        const auto ranked = rank(poolFigures);
        const auto& front = ranked.first;
        const auto& crowding = ranked.second;
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
    std::pair<std::vector<int>, size_t> parkedBatch()
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
    std::vector<int> parked() const
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

    // ---- proposals ----

    SearchSpace::Point haltonPoint()
    {
        ++haltonIndex;
        const auto& bases = space.bases();
        size_t dim = 0;
        SearchSpace::Point point;
        point.base = bases.size() > 1
                         ? std::min(bases.size() - 1, size_t(radicalInverse(haltonIndex, prime(dim++)) *
                                                             double(bases.size())))
                         : 0;
        for (const auto& p : space.parameters()) {
            const double u = radicalInverse(haltonIndex, prime(dim++));
            const size_t n = p.axis.values.size();
            point.choice.push_back(p.appliesTo[point.base] ? int(std::min(n - 1, size_t(u * double(n))))
                                                           : SearchSpace::kBaseValue);
        }
        return point;
    }

    void mutate(SearchSpace::Point& point, Draws& draws)
    {
        const auto& params = space.parameters();
        if (space.bases().size() > 1 && draws.unit() < 0.1) {
            point.base = (point.base + 1 + draws.below(space.bases().size() - 1)) % space.bases().size();
            for (size_t p = 0; p < params.size(); ++p) {
                if (!params[p].appliesTo[point.base])
                    point.choice[p] = SearchSpace::kBaseValue;
            }
        }
        size_t applicable = 0;
        for (const auto& p : params)
            applicable += p.appliesTo[point.base] ? 1 : 0;
        const double rate = applicable == 0 ? 0 : std::max(1.0 / double(applicable), 0.25);
        for (size_t p = 0; p < params.size(); ++p) {
            if (!params[p].appliesTo[point.base] || draws.unit() >= rate)
                continue;
            const int n = int(params[p].axis.values.size());
            if (params[p].ordered && point.choice[p] != SearchSpace::kBaseValue) {
                const int step = 1 + int(draws.below(2));
                const int moved = point.choice[p] + (draws.unit() < 0.5 ? -step : step);
                point.choice[p] = std::clamp(moved, 0, n - 1);
            } else {
                point.choice[p] = int(draws.below(size_t(n)));
            }
        }
    }

    SearchSpace::Point crossover(const SearchSpace::Point& a, const SearchSpace::Point& b, Draws& draws)
    {
        auto child = a;
        const auto& params = space.parameters();
        for (size_t p = 0; p < params.size(); ++p) {
            if (params[p].appliesTo[child.base] && params[p].appliesTo[b.base] && draws.unit() < 0.5)
                child.choice[p] = b.choice[p];
        }
        return child;
    }

    std::vector<SearchSpace::Point> offspring(size_t count)
    {
        Draws draws(options.seed * 1000003ull + uint64_t(generation));
        // Parents: the candidates at the top rung, by rank and crowding on the search part.
        auto pool = atRung(int(result.rungTasks.size()) - 1);
        if (pool.empty()) {
            for (int r = int(result.rungTasks.size()) - 2; r >= 0 && pool.empty(); --r)
                pool = atRung(r);
        }
        std::vector<SearchSpace::Point> children;
        std::set<std::string> taken;
        const auto take = [&](const SearchSpace::Point& point) {
            const auto key = SearchSpace::key(point);
            if (byKey.count(key) || !taken.insert(key).second)
                return;
            children.push_back(point);
        };
        if (!pool.empty()) {
            std::vector<ObjectiveFigures> figures;
            for (const int id : pool) {
                const auto& f = rungFigures[size_t(id - 1)];
                figures.push_back(f.back());
            }
            const auto ranked = rank(figures);
            const auto& front = ranked.first;
            const auto& crowding = ranked.second;
            const auto tournament = [&]() {
                const size_t a = draws.below(pool.size());
                const size_t b = draws.below(pool.size());
                if (front[a] != front[b])
                    return front[a] < front[b] ? a : b;
                return crowding[a] >= crowding[b] ? a : b;
            };
            for (size_t attempt = 0; attempt < 50 * count && children.size() < count; ++attempt) {
                const auto& p1 = candidate(pool[tournament()]).point;
                const auto& p2 = candidate(pool[tournament()]).point;
                auto child = draws.unit() < 0.9 ? crossover(p1, p2, draws) : p1;
                mutate(child, draws);
                take(child);
            }
        }
        // Too few new ones near the best: fresh quasi-random points.
        for (size_t attempt = 0; attempt < 50 * count && children.size() < count; ++attempt)
            take(haltonPoint());
        return children;
    }

    // ---- reporting ----

    std::vector<FrontPoint> frontPoints(const std::vector<int>& ids, const std::vector<size_t>& taskList) const
    {
        std::vector<FrontPoint> out;
        for (const int id : ids) {
            FrontPoint p;
            p.candidate = id;
            p.name = result.candidates[size_t(id - 1)].name;
            p.figures = trials[size_t(id - 1)].figures(taskList);
            std::vector<double> accuracies;
            for (const double a : trials[size_t(id - 1)].taskAccuracy(taskList)) {
                if (!std::isnan(a))
                    accuracies.push_back(a);
            }
            // A mean of accuracies: its interval stays within [0, 1].
            p.accuracyCi = ExperimentStats::meanWithCi(accuracies).second;
            p.accuracyCi = {std::clamp(p.accuracyCi.lo, 0.0, 1.0), std::clamp(p.accuracyCi.hi, 0.0, 1.0)};
            out.push_back(std::move(p));
        }
        return out;
    }

    std::vector<int> currentSearchFront() const
    {
        const int top = int(result.rungTasks.size()) - 1;
        std::vector<int> ids;
        std::map<int, ObjectiveFigures> figures;
        for (const auto& c : result.candidates) {
            if (c.status != CandidateStatus::Dropped && c.twinOf == 0 && c.rung == top) {
                ids.push_back(c.id);
                figures[c.id] = rungFigures[size_t(c.id - 1)][size_t(top)];
            }
        }
        return ids.empty() ? ids : nonDominated(ids, figures);
    }

    void report(std::string phase)
    {
        if (!onProgress)
            return;
        Progress p;
        p.phase = std::move(phase);
        p.generation = generation;
        p.trials = result.searchTrials + result.validationTrials + result.testTrials;
        p.seconds = elapsed();
        p.candidates = result.candidates.size();
        for (const auto& c : result.candidates) {
            (c.status == CandidateStatus::Dropped ? p.dropped : p.alive) += 1;
            p.twins += c.status != CandidateStatus::Dropped && c.twinOf != 0 ? 1 : 0;
        }
        p.front = frontPoints(currentSearchFront(), result.parts.search);
        onProgress(p);
    }

    // ---- the whole search ----

    void chooseAndTest()
    {
        const auto searchFront = currentSearchFront();
        result.searchFront = searchFront;
        for (const int id : searchFront)
            result.searchFigures[id] = trials[size_t(id - 1)].figures(result.parts.search);
        if (searchFront.empty())
            return;
        if (!evaluate(searchFront, result.parts.validation, "validation", &result.validationTrials))
            return;
        for (const int id : searchFront)
            result.validationFigures[id] = trials[size_t(id - 1)].figures(result.parts.validation);
        report("validation");
        result.front = nonDominated(searchFront, result.validationFigures);
        std::sort(result.front.begin(), result.front.end(), [&](int a, int b) {
            const double fa = result.validationFigures[a][Objective::Accuracy];
            const double fb = result.validationFigures[b][Objective::Accuracy];
            return fa != fb ? fa > fb : a < b;
        });
        for (const int id : searchFront) {
            auto& c = candidate(id);
            if (std::find(result.front.begin(), result.front.end(), id) != result.front.end()) {
                c.status = CandidateStatus::Front;
            } else {
                c.why = "on the search part's front, not on validation's";
            }
            dirty[size_t(id - 1)] = true;
        }
        flushJournal();
        test();
    }

    // The front, the bases as drawn and the references, once on the test part.
    void test()
    {
        std::vector<int> ids;
        for (size_t b = 0; b < space.bases().size(); ++b) {
            const int id = byKey.at(SearchSpace::key({b, std::vector<int>(space.parameters().size(),
                                                                          SearchSpace::kBaseValue)}));
            if (designs[size_t(id - 1)])
                ids.push_back(id);
        }
        const size_t bases = ids.size();
        for (const int id : result.front) {
            if (std::find(ids.begin(), ids.end(), id) == ids.end())
                ids.push_back(id);
        }
        if (!evaluate(ids, result.parts.test, "test", &result.testTrials))
            return;
        ExperimentSpec spec;
        spec.name = "design search: test";
        std::vector<std::string> names;
        std::vector<TrialRecord> records;
        const auto add = [&](const std::string& name) {
            auto unique = name;
            for (int k = 2; std::find(names.begin(), names.end(), unique) != names.end(); ++k)
                unique = name + " #" + std::to_string(k);
            names.push_back(unique);
        };
        for (size_t i = 0; i < bases; ++i) {
            add(candidate(ids[i]).name + " (as drawn)");
            result.testCandidates.push_back(ids[i]);
        }
        // References run now: they are not candidates, and nothing else measures them.
        if (!options.references.empty()) {
            std::vector<const Task*> selected;
            for (const size_t t : result.parts.test)
                selected.push_back(&tasks->tasks()[t]);
            ExperimentSpec refs;
            refs.name = "design search: references";
            for (const auto& r : options.references)
                refs.designs.push_back(makeDesign(r.team.name, r.file, r.team));
            refs.tasksetName = "search";
            refs.tasks = std::make_shared<const TaskSet>(tasks->subset(selected));
            refs.seeds = options.trialSeeds;
            refs.clock = ClockRequest::Virtual;
            std::string error;
            std::vector<TrialRecord> refTrials;
            if (!TrialSummaries::evaluate(engine, refs, error, &refTrials)) {
                result.status = Status::Failed;
                result.error = "a reference: " + error;
                return;
            }
            for (size_t r = 0; r < options.references.size(); ++r) {
                add(options.references[r].team.name);
                result.testCandidates.push_back(0);
            }
            for (auto& t : refTrials) {
                t.design += int(bases);
                records.push_back(std::move(t));
            }
            result.testTrials += int64_t(refTrials.size());
        }
        for (size_t i = bases; i < ids.size(); ++i) {
            add(candidate(ids[i]).name);
            result.testCandidates.push_back(ids[i]);
        }
        // Every candidate's trials as records of one experiment, design by design.
        for (size_t d = 0; d < result.testCandidates.size(); ++d) {
            const int id = result.testCandidates[d];
            if (id == 0)
                continue;
            result.testFigures[id] = trials[size_t(id - 1)].figures(result.parts.test);
            for (const size_t t : result.parts.test) {
                for (size_t s = 0; s < options.trialSeeds.size(); ++s) {
                    const auto& cell = trials[size_t(id - 1)].at(t, s);
                    TrialRecord r;
                    r.design = int(d);
                    r.designName = names[d];
                    r.task = tasks->tasks()[t].id;
                    r.domain = tasks->tasks()[t].domain;
                    r.seed = options.trialSeeds[s];
                    r.status = cell.failed ? RunStatus::Failed : RunStatus::Ok;
                    if (cell.scored && !cell.failed)
                        r.correct = cell.right;
                    r.wallUs = int64_t(std::llround(cell.wallMs * 1000));
                    r.costUsd = cell.costUsd;
                    r.tokens = int64_t(cell.tokens);
                    r.calls = int(cell.calls);
                    records.push_back(std::move(r));
                }
            }
        }
        result.testDesigns = names;
        result.test = ExperimentStats::summarize(names, 0, records);
        result.testRecords = std::move(records);
        report("test");
    }

    void run()
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
            if (const int id = propose(haltonPoint()); id > 0)
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
};

DesignSearch::DesignSearch(Engine& engine, const SearchSpace& space, std::shared_ptr<const TaskSet> tasks,
                           Options options)
    : m_state(std::make_unique<State>(engine, space, std::move(tasks), std::move(options)))
{
}

DesignSearch::~DesignSearch() = default;

std::optional<std::string> DesignSearch::refusal(const SearchBase& base)
{
    for (const auto& [name, backend] : base.team.backends) {
        if (backend.kind == BackendKind::OpenAi) {
            return (base.file.empty() ? base.team.name : base.file) + ": backend \"" + name.str() +
                   "\" calls a paid endpoint (openai), and a search never spends money: calibrate its models "
                   "(conclave calibrate) and search a local-moe copy, or replay recorded calls (a recorded backend)";
        }
    }
    return std::nullopt;
}

std::optional<DesignSearch::Parts> DesignSearch::split(const TaskSet& tasks, const std::vector<double>& fractions,
                                                       uint64_t seed, const std::set<std::string>& trained,
                                                       std::string& error)
{
    auto splitter = TaskSplit::make(fractions, seed, error);
    if (!splitter)
        return std::nullopt;
    if (fractions.size() != 3) {
        error = "a search's split has three parts (search/validation/test), not " + std::to_string(fractions.size());
        return std::nullopt;
    }
    const auto hash = tasks.contentHash();
    std::vector<std::pair<double, size_t>> placed[3];
    std::vector<std::pair<double, size_t>> fitted; // fitted tasks the split put in validation or test
    Parts parts;
    for (size_t t = 0; t < tasks.tasks().size(); ++t) {
        const auto& task = tasks.tasks()[t];
        const double position = splitter->position(hash, task.id);
        auto part = splitter->partOf(hash, task.id);
        if (part != 0 && trained.count(task.id)) {
            part = 0;
            ++parts.trainedOn;
        }
        if (part != 0 && task.difficulty)
            fitted.emplace_back(position, t);
        else
            placed[part].emplace_back(position, t);
    }
    if (!fitted.empty()) {
        // Fitted tasks stay out of validation and test while each keeps a task of its own.
        if (!placed[1].empty() && !placed[2].empty()) {
            parts.fitted = fitted.size();
            placed[0].insert(placed[0].end(), fitted.begin(), fitted.end());
        } else {
            for (const auto& [position, t] : fitted)
                placed[splitter->partOf(hash, tasks.tasks()[t].id)].emplace_back(position, t);
            parts.blindNote = "the test is not blind: " + std::to_string(fitted.size()) +
                              " validation and test tasks have difficulties fitted from measurements";
        }
    }
    for (auto& p : placed)
        std::sort(p.begin(), p.end());
    const auto indices = [](const std::vector<std::pair<double, size_t>>& p) {
        std::vector<size_t> out;
        for (const auto& [position, t] : p)
            out.push_back(t);
        return out;
    };
    parts.search = indices(placed[0]);
    parts.validation = indices(placed[1]);
    parts.test = indices(placed[2]);
    const char* names[] = {"search", "validation", "test"};
    for (size_t i = 0; i < 3; ++i) {
        if (placed[i].size() < 2) {
            error = std::string("the ") + names[i] + " part has " + std::to_string(placed[i].size()) + " task" +
                    (placed[i].size() == 1 ? "" : "s") + " of " + std::to_string(tasks.tasks().size()) +
                    "; a paired interval needs at least 2 (use more tasks, or another --split)";
            return std::nullopt;
        }
    }
    if (parts.trainedOn > 0)
        parts.notes.push_back(std::to_string(parts.trainedOn) +
                              " tasks a router or scorer file was trained on kept in the search part");
    if (parts.fitted > 0)
        parts.notes.push_back(std::to_string(parts.fitted) +
                              " tasks with difficulties fitted from measurements kept in the search part");
    return parts;
}

void DesignSearch::setProgressHandler(std::function<void(const Progress&)> handler)
{
    m_state->onProgress = std::move(handler);
}

void DesignSearch::setJournal(SearchJournal* journal)
{
    m_state->journal = journal;
}

void DesignSearch::stop(std::string why)
{
    std::lock_guard lock(m_state->stopMutex);
    if (m_state->stopping.exchange(true))
        return;
    m_state->stopWhy = std::move(why);
    if (m_state->inFlight)
        m_state->inFlight->stop(m_state->stopWhy);
}

DesignSearch::Result DesignSearch::run()
{
    auto& s = *m_state;
    std::set<std::string> trained;
    for (const auto& base : s.space.bases()) {
        if (auto refused = refusal(base)) {
            s.result.status = Status::Failed;
            s.result.error = *refused;
            return s.result;
        }
        trained.merge(TrainedTasks::of(base.team, folderOf(base.path), s.result.parts.notes));
    }
    std::string error;
    auto notes = s.result.parts.notes;
    auto parts = split(*s.tasks, s.options.split, s.options.seed, trained, error);
    if (!parts) {
        s.result.status = Status::Failed;
        s.result.error = error;
        return s.result;
    }
    s.result.parts = std::move(*parts);
    s.result.parts.notes.insert(s.result.parts.notes.begin(), notes.begin(), notes.end());
    s.run();
    s.result.seconds = s.elapsed();
    return s.result;
}

} // namespace conclave
