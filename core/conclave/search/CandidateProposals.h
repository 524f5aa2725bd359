#pragma once

#include "conclave/search/ParetoRanking.h"
#include "conclave/search/SearchSpace.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace conclave {

// Where a design search's candidates come from (docs/search.md, "Proposals"): quasi-random points of the
// space — the Halton sequence (J. H. Halton, Numer. Math. 2, 1960), one prime per dimension — and NSGA-II's
// children of the best (binary tournament on rank and crowding, uniform crossover, mutation). Every draw is
// a function of the seed it is given, so a search proposes the same candidates each time it runs.
class CandidateProposals {
public:
    explicit CandidateProposals(const SearchSpace& space) : m_space(space) {}

    // The next point of the Halton sequence.
    SearchSpace::Point nextHalton();
    // Up to `count` new points: children of `parents` (ranked by `ranks`), then fresh Halton points when 50
    // tries per child find too few; `known` says a point's key was proposed before.
    std::vector<SearchSpace::Point> offspring(const std::vector<SearchSpace::Point>& parents,
                                              const ParetoRanking::Ranks& ranks, size_t count, uint64_t seed,
                                              const std::function<bool(const std::string&)>& known);

private:
    class Draws;
    void mutate(SearchSpace::Point& point, Draws& draws) const;
    SearchSpace::Point crossover(const SearchSpace::Point& a, const SearchSpace::Point& b, Draws& draws) const;

    const SearchSpace& m_space;
    uint64_t m_haltonIndex = 0;
};

} // namespace conclave
