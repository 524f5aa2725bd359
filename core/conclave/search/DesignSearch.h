#pragma once

#include "conclave/analysis/ExperimentStats.h"
#include "conclave/local/TaskSet.h"
#include "conclave/search/CandidateTrials.h"
#include "conclave/search/SearchCandidate.h"
#include "conclave/search/SearchObjectives.h"
#include "conclave/search/SearchParts.h"
#include "conclave/search/SearchSpace.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace conclave {

class Engine;
class SearchJournal;
struct ExperimentDesign;

// A multi-objective design search on the simulator (docs/search.md). The
// tasks are split by TaskSplit into search, validation and test parts.
// Candidates — quasi-random points of the space first (the bases as drawn
// among them), then NSGA-II-style crossover and mutation of the best — are
// evaluated by successive halving on growing prefixes of the search part,
// every candidate on the same tasks and seeds (common random numbers). After
// each rung a candidate is dropped when another is shown better
// (CandidateDominance at level 1 − 0.05/R for R rungs); of the survivors,
// those no other beats on point estimates, and the best 1/η by NSGA-II rank
// and crowding, go on to the next rung. The front of the full search part is
// measured on validation to choose the final front, which is measured once
// on test, beside the bases as drawn (the first one the baseline of every Δ).
// run() blocks; stop() (any thread) ends it after the batch in flight,
// keeping the front so far, with nothing measured on validation or test.
class DesignSearch {
public:
    struct Options {
        std::vector<Objective> objectives{Objective::Accuracy, Objective::Cost, Objective::P95Wall};
        std::vector<SearchConstraint> constraints;
        std::vector<double> split{0.5, 0.25, 0.25};
        uint64_t seed = 1;                   // the split's, the proposals' and the bootstraps'
        std::vector<uint64_t> trialSeeds{1}; // every trial runs at each
        std::optional<int64_t> budgetTrials; // of the search part; validation and test come on top
        std::optional<double> budgetSeconds;
        int eta = 3;
        size_t population = 0; // candidates per generation; 0: 4 per parameter and base, 8 to 32
        int concurrency = 64;
        // Designs measured on test beside the bases as drawn (a model alone, for reference).
        std::vector<SearchBase> references;
    };

    using Parts = SearchParts;

    struct FrontPoint {
        int candidate = 0;
        std::string name;
        ObjectiveFigures figures;
        Interval accuracyCi; // 95 %, over tasks (ExperimentStats::meanWithCi)
    };

    struct Progress {
        std::string phase; // "generation 2, rung 1 of 3", "validation", "test"
        int generation = 0;
        int64_t trials = 0;
        double seconds = 0;
        size_t candidates = 0;
        size_t alive = 0;
        size_t dropped = 0;
        size_t twins = 0; // of the alive: twins of an earlier candidate, not run further
        std::vector<FrontPoint> front; // on the search part, of the candidates at the top rung
    };

    enum class Status { Finished, Stopped, Failed };

    struct Result {
        Status status = Status::Finished;
        std::string note;  // why it ended early ("budget of 2000 trials reached", "stopped by Ctrl+C")
        std::string error; // when Failed
        Parts parts;
        std::vector<size_t> rungTasks; // the search part's prefix each rung measures on
        double level = 0;              // of every drop's interval
        std::vector<SearchCandidate> candidates;
        std::vector<int> searchFront; // on the full search part
        std::vector<int> front;       // chosen on validation (empty when stopped)
        std::map<int, ObjectiveFigures> searchFigures;
        std::map<int, ObjectiveFigures> validationFigures;
        std::map<int, ObjectiveFigures> testFigures;
        // On test: the bases as drawn, the references, then the front; design 0 the baseline.
        std::vector<std::string> testDesigns;
        std::vector<int> testCandidates; // per test design: its candidate, 0 for a reference
        std::optional<ExperimentSummary> test;
        std::vector<TrialRecord> testRecords; // its trials, design by design as testDesigns
        int64_t searchTrials = 0; // counted against the budget (kept ones included)
        int64_t keptTrials = 0;   // read back from the journal instead of run
        int64_t validationTrials = 0;
        int64_t testTrials = 0;
        int generations = 0;
        double seconds = 0;
        bool exhausted = false; // every point of the space was proposed
    };

    DesignSearch(Engine& engine, const SearchSpace& space, std::shared_ptr<const TaskSet> tasks, Options options);
    ~DesignSearch();

    // Why a base cannot be searched (it calls a paid endpoint): a search never spends money.
    static std::optional<std::string> refusal(const SearchBase& base);
    // The parts of `tasks` under `split` (SearchParts::make).
    static std::optional<Parts> split(const TaskSet& tasks, const std::vector<double>& split, uint64_t seed,
                                      const std::set<std::string>& trained, std::string& error)
    {
        return SearchParts::make(tasks, split, seed, trained, error);
    }

    void setProgressHandler(std::function<void(const Progress&)> handler);
    void setJournal(SearchJournal* journal);
    Result run();
    void stop(std::string why);

private:
    struct State;
    std::unique_ptr<State> m_state;
};

} // namespace conclave
