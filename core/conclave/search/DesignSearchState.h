#pragma once

// DesignSearch's state while it runs: its candidates, their trials, and the steps of the search
// (DesignSearchState.cpp: candidates, evaluation, successive halving, the whole loop;
// DesignSearchFront.cpp: the front as progress shows it, chosen on validation and measured on test).
// Private to the search folder's DesignSearch*.cpp.
#include "conclave/engine/DeterministicRandom.h"
#include "conclave/experiment/ExperimentRunner.h"
#include "conclave/experiment/ExperimentSpec.h"
#include "conclave/search/CandidateProposals.h"
#include "conclave/search/DesignSearch.h"
#include "conclave/search/ParetoRanking.h"
#include "conclave/search/SearchJournal.h"

#include <atomic>
#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace conclave {

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

    using Clock = std::chrono::steady_clock;
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
    CandidateProposals proposals;
    int generation = 0;

    State(Engine& e, const SearchSpace& s, std::shared_ptr<const TaskSet> t, Options o)
        : engine(e), space(s), tasks(std::move(t)), options(std::move(o)), proposals(s)
    {
    }

    SearchCandidate& candidate(int id) { return result.candidates[size_t(id - 1)]; }
    double elapsed() const { return std::chrono::duration<double>(Clock::now() - started).count(); }

    bool halted();

    // ---- candidates ----

    int propose(const SearchSpace::Point& point);

    void flushJournal();

    void drop(int id, int by, std::string why);

    // ---- evaluation ----

    // Runs what `ids` lack of `taskList` (every seed); false when the budget or a stop ended it first.
    bool evaluate(const std::vector<int>& ids, const std::vector<size_t>& taskList, std::string_view part,
                  int64_t* spent);

    bool runGroup(const std::vector<int>& group, const std::vector<size_t>& missing, std::string_view part);

    std::vector<size_t> prefix(size_t rung) const;

    // ---- ranking (ParetoRanking) ----

    ParetoRanking::Ranks rank(const std::vector<ObjectiveFigures>& figures) const
    {
        return ParetoRanking::rank(figures, options.objectives);
    }

    std::vector<int> nonDominated(const std::vector<int>& ids, const std::map<int, ObjectiveFigures>& figures) const
    {
        return ParetoRanking::nonDominated(ids, figures, options.objectives, options.constraints);
    }

    // The candidates still searched that got to `rung` (twins are not).
    std::vector<int> atRung(int rung) const;

    // ---- one generation: successive halving of its new candidates ----

    uint64_t comparisonSeed(int a, int b, size_t rung) const
    {
        return DeterministicRandom::mix(options.seed ^ (uint64_t(a) << 40) ^ (uint64_t(b) << 16) ^ rung);
    }

    // Takes `batch` through the rungs from `from` on; false when the budget or a stop ended it first.
    bool halve(std::vector<int> batch, size_t from = 0);

    // Of `batch` (evaluated at rung r), those going on to rung r + 1: the ones no candidate at r beats on
    // point estimates, and the best 1/η by NSGA-II rank and crowding among them (at least one), by id.
    std::vector<int> promote(const std::vector<int>& batch, size_t r) const;

    // When every point was proposed: the parked candidates of the highest rung any is parked at, promoted
    // as if that rung had just been measured (at least one goes on, so the search always moves), and the
    // rung they go on to. Empty when none is parked.
    std::pair<std::vector<int>, size_t> parkedBatch();

    // The candidates still searched that stopped below the top rung, not promoted, and the twins whose
    // original went further (a field may change nothing on some tasks and something on others).
    std::vector<int> parked() const;

    // ---- proposals (CandidateProposals) ----

    std::vector<SearchSpace::Point> offspring(size_t count);

    // ---- reporting ----

    std::vector<FrontPoint> frontPoints(const std::vector<int>& ids, const std::vector<size_t>& taskList) const;

    std::vector<int> currentSearchFront() const;

    void report(std::string phase);

    // ---- the whole search ----

    void chooseAndTest();

    // The front, the bases as drawn and the references, once on the test part.
    void test();

    void run();
};

} // namespace conclave
