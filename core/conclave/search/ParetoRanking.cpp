#include "conclave/search/ParetoRanking.h"

#include "conclave/search/CandidateTrials.h"

#include <algorithm>
#include <limits>

namespace conclave {

ParetoRanking::Ranks ParetoRanking::rank(const std::vector<ObjectiveFigures>& figures,
                                         const std::vector<Objective>& objectives)
{
    const size_t n = figures.size();
    Ranks r{std::vector<int>(n, -1), std::vector<double>(n, 0)};
    size_t placed = 0;
    for (int level = 0; placed < n; ++level) {
        std::vector<size_t> members;
        for (size_t i = 0; i < n; ++i) {
            if (r.front[i] != -1)
                continue;
            bool dominated = false;
            for (size_t j = 0; j < n && !dominated; ++j) {
                dominated = j != i && (r.front[j] == -1 || r.front[j] == level) &&
                            CandidateDominance::dominates(figures[j], figures[i], objectives);
            }
            if (!dominated)
                members.push_back(i);
        }
        for (const size_t i : members)
            r.front[i] = level;
        placed += members.size();
        for (const auto o : objectives) {
            auto sorted = members;
            std::sort(sorted.begin(), sorted.end(), [&](size_t a, size_t b) { return figures[a][o] < figures[b][o]; });
            if (sorted.empty())
                continue;
            const double span = figures[sorted.back()][o] - figures[sorted.front()][o];
            r.crowding[sorted.front()] = r.crowding[sorted.back()] = std::numeric_limits<double>::infinity();
            for (size_t k = 1; k + 1 < sorted.size(); ++k) {
                if (span > 0)
                    r.crowding[sorted[k]] += (figures[sorted[k + 1]][o] - figures[sorted[k - 1]][o]) / span;
            }
        }
    }
    return r;
}

std::vector<int> ParetoRanking::nonDominated(const std::vector<int>& ids, const std::map<int, ObjectiveFigures>& figures,
                                             const std::vector<Objective>& objectives,
                                             const std::vector<SearchConstraint>& constraints)
{
    const auto feasible = [&](const ObjectiveFigures& f) {
        return std::all_of(constraints.begin(), constraints.end(),
                           [&](const SearchConstraint& c) { return c.met(f[c.objective]); });
    };
    std::vector<int> pool;
    for (const int id : ids) {
        if (feasible(figures.at(id)))
            pool.push_back(id);
    }
    if (pool.empty())
        pool = ids;
    std::vector<int> out;
    for (const int id : pool) {
        const bool dominated = std::any_of(pool.begin(), pool.end(), [&](int other) {
            return other != id && CandidateDominance::dominates(figures.at(other), figures.at(id), objectives);
        });
        if (!dominated)
            out.push_back(id);
    }
    return out;
}

} // namespace conclave
