#pragma once

#include "conclave/analysis/ExperimentStats.h"
#include "conclave/search/SearchObjectives.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace conclave {

// One trial of a candidate, reduced to what its objectives read.
struct TrialCell {
    bool ran = false;
    bool scored = false; // ExperimentStats::scored
    bool right = false;  // ExperimentStats::right
    bool failed = false;
    double wallMs = 0;
    double costUsd = 0;
    double tokens = 0;
    double calls = 0;

    static TrialCell of(const TrialRecord& trial);

    friend bool operator==(const TrialCell&, const TrialCell&) = default;
};

// A candidate's trials, by task (an index into the search's task list) and
// seed (an index into its seeds): a candidate is evaluated on growing
// prefixes of a part's tasks, always with every seed.
class CandidateTrials {
public:
    CandidateTrials() = default;
    CandidateTrials(size_t tasks, size_t seeds) : m_seeds(seeds), m_cells(tasks * seeds) {}

    size_t seeds() const { return m_seeds; }
    const TrialCell& at(size_t task, size_t seed) const { return m_cells[task * m_seeds + seed]; }
    void set(size_t task, size_t seed, const TrialCell& cell) { m_cells[task * m_seeds + seed] = cell; }
    // Whether every seed of `task` ran.
    bool has(size_t task) const;
    // Whether every trial on `tasks` came out exactly as other's (the same outcome, time, cost, tokens and calls).
    bool sameAs(const CandidateTrials& other, const std::vector<size_t>& tasks) const;

    // The point estimates over `tasks` (each at every seed that ran).
    ObjectiveFigures figures(const std::vector<size_t>& tasks) const;
    // Per task, its accuracy over its scored seeds (NaN: none scored).
    std::vector<double> taskAccuracy(const std::vector<size_t>& tasks) const;
    // Per task, the observations an objective's ratio is bootstrapped over.
    std::vector<std::vector<double>> observations(const std::vector<size_t>& tasks, Objective objective) const;

private:
    size_t m_seeds = 1;
    std::vector<TrialCell> m_cells;
};

// Whether one candidate is shown to be better than another (a design search's
// drop rule, docs/search.md): `a` is no worse than `b` on every objective
// (point estimates) and better on at least one with that objective's paired
// interval at `level` excluding no difference — accuracy by its paired Δ over
// the tasks both scored, the others by the bootstrap ratio over tasks
// (PairedComparison). The evidence ("accuracy +6.0 pt [1.2, 10.8] at 98.3 %")
// when shown, else unset. Figures within 1e-9 (relative) are equal.
class CandidateDominance {
public:
    static constexpr int kResamples = 1000;

    static std::optional<std::string> shown(const CandidateTrials& a, const CandidateTrials& b,
                                            const std::vector<size_t>& tasks, const std::vector<Objective>& objectives,
                                            double level, uint64_t seed);
    // On point estimates alone: no worse on every objective, better on one.
    static bool dominates(const ObjectiveFigures& a, const ObjectiveFigures& b,
                          const std::vector<Objective>& objectives);
    // Equal within 1e-9 (relative).
    static bool same(double a, double b);
};

} // namespace conclave
