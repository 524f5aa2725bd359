#include "conclave/search/CandidateProposals.h"

#include "conclave/engine/DeterministicRandom.h"

#include <algorithm>
#include <set>

namespace conclave {

namespace {

// The radical inverse of i in base b: the Halton sequence's i-th coordinate.
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

} // namespace

// The proposals' random numbers: splitmix64 from a seed.
class CandidateProposals::Draws {
public:
    explicit Draws(uint64_t seed) : m_state(DeterministicRandom::mix(seed)) {}
    uint64_t next() { return m_state = DeterministicRandom::mix(m_state); }
    double unit() { return double(next() >> 11) * 0x1.0p-53; }
    size_t below(size_t n) { return n == 0 ? 0 : size_t(next() % n); }

private:
    uint64_t m_state;
};

SearchSpace::Point CandidateProposals::nextHalton()
{
    ++m_haltonIndex;
    const auto& bases = m_space.bases();
    size_t dim = 0;
    SearchSpace::Point point;
    point.base = bases.size() > 1 ? std::min(bases.size() - 1, size_t(radicalInverse(m_haltonIndex, prime(dim++)) *
                                                                       double(bases.size())))
                                  : 0;
    for (const auto& p : m_space.parameters()) {
        const double u = radicalInverse(m_haltonIndex, prime(dim++));
        const size_t n = p.axis.values.size();
        point.choice.push_back(p.appliesTo[point.base] ? int(std::min(n - 1, size_t(u * double(n))))
                                                       : SearchSpace::kBaseValue);
    }
    return point;
}

void CandidateProposals::mutate(SearchSpace::Point& point, Draws& draws) const
{
    const auto& params = m_space.parameters();
    const size_t bases = m_space.bases().size();
    if (bases > 1 && draws.unit() < 0.1) {
        point.base = (point.base + 1 + draws.below(bases - 1)) % bases;
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

SearchSpace::Point CandidateProposals::crossover(const SearchSpace::Point& a, const SearchSpace::Point& b,
                                                 Draws& draws) const
{
    auto child = a;
    const auto& params = m_space.parameters();
    for (size_t p = 0; p < params.size(); ++p) {
        if (params[p].appliesTo[child.base] && params[p].appliesTo[b.base] && draws.unit() < 0.5)
            child.choice[p] = b.choice[p];
    }
    return child;
}

std::vector<SearchSpace::Point> CandidateProposals::offspring(const std::vector<SearchSpace::Point>& parents,
                                                              const ParetoRanking::Ranks& ranks, size_t count,
                                                              uint64_t seed,
                                                              const std::function<bool(const std::string&)>& known)
{
    Draws draws(seed);
    std::vector<SearchSpace::Point> children;
    std::set<std::string> taken;
    const auto take = [&](const SearchSpace::Point& point) {
        const auto key = SearchSpace::key(point);
        if (known(key) || !taken.insert(key).second)
            return;
        children.push_back(point);
    };
    if (!parents.empty()) {
        const auto tournament = [&]() {
            const size_t a = draws.below(parents.size());
            const size_t b = draws.below(parents.size());
            if (ranks.front[a] != ranks.front[b])
                return ranks.front[a] < ranks.front[b] ? a : b;
            return ranks.crowding[a] >= ranks.crowding[b] ? a : b;
        };
        for (size_t attempt = 0; attempt < 50 * count && children.size() < count; ++attempt) {
            const auto& p1 = parents[tournament()];
            const auto& p2 = parents[tournament()];
            auto child = draws.unit() < 0.9 ? crossover(p1, p2, draws) : p1;
            mutate(child, draws);
            take(child);
        }
    }
    // Too few new ones near the best: fresh quasi-random points.
    for (size_t attempt = 0; attempt < 50 * count && children.size() < count; ++attempt)
        take(nextHalton());
    return children;
}

} // namespace conclave
