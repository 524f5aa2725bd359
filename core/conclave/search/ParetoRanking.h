#pragma once

#include "conclave/search/SearchObjectives.h"

#include <map>
#include <vector>

namespace conclave {

// Candidates ordered by point estimates over several objectives: what a design search promotes and chooses by.
class ParetoRanking {
public:
    struct Ranks {
        std::vector<int> front;       // per point: its non-dominated front, 0 the best
        std::vector<double> crowding; // per point: its crowding distance within its front (∞ at a front's ends)
    };
    // NSGA-II's non-dominated sorting and crowding distance (K. Deb et al., "A fast and elitist
    // multiobjective genetic algorithm: NSGA-II", IEEE TEC 6(2), 2002), dominance as
    // CandidateDominance::dominates reads it.
    static Ranks rank(const std::vector<ObjectiveFigures>& figures, const std::vector<Objective>& objectives);
    // The ids no other of them dominates, among those meeting every constraint (among all when none does).
    static std::vector<int> nonDominated(const std::vector<int>& ids, const std::map<int, ObjectiveFigures>& figures,
                                         const std::vector<Objective>& objectives,
                                         const std::vector<SearchConstraint>& constraints);
};

} // namespace conclave
