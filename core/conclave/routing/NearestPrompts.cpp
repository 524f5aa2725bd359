#include "conclave/routing/NearestPrompts.h"

#include "conclave/routing/RouterTrainer.h"

#include <algorithm>
#include <cmath>

namespace conclave {

NearestPrompts::NearestPrompts(const std::vector<SparseVector>& prompts,
                               const std::vector<std::vector<double>>& outcomes, std::vector<double> baseRates,
                               uint32_t dimension, const std::vector<bool>& include)
    : m_outcomes(outcomes), m_baseRates(std::move(baseRates)), m_postings(dimension), m_prompts(prompts.size())
{
    for (size_t p = 0; p < prompts.size(); ++p) {
        if (!include.empty() && !include[p])
            continue;
        for (const auto& [index, value] : prompts[p]) {
            if (index < dimension)
                m_postings[index].emplace_back(static_cast<uint32_t>(p), value);
        }
    }
}

std::vector<uint32_t> NearestPrompts::nearest(const SparseVector& x, size_t k) const
{
    std::vector<double> similarity(m_prompts, 0.0);
    std::vector<uint32_t> touched;
    for (const auto& [index, value] : x) {
        if (index >= m_postings.size())
            continue;
        for (const auto& [prompt, stored] : m_postings[index]) {
            if (similarity[prompt] == 0.0)
                touched.push_back(prompt);
            similarity[prompt] += stored * value;
        }
    }
    // Only prompts sharing a feature can be neighbours; a sum that came back to 0 is dropped with them.
    std::erase_if(touched, [&](uint32_t p) { return similarity[p] <= 0.0; });
    std::sort(touched.begin(), touched.end());
    touched.erase(std::unique(touched.begin(), touched.end()), touched.end());
    const auto closer = [&](uint32_t a, uint32_t b) {
        return similarity[a] != similarity[b] ? similarity[a] > similarity[b] : a < b;
    };
    k = std::min(k, touched.size());
    std::partial_sort(touched.begin(), touched.begin() + static_cast<std::ptrdiff_t>(k), touched.end(), closer);
    touched.resize(k);
    return touched;
}

std::vector<double> NearestPrompts::estimate(const std::vector<uint32_t>& neighbours, size_t k) const
{
    std::vector<double> p(m_baseRates.size());
    for (size_t m = 0; m < p.size(); ++m) {
        double sum = m_baseRates[m];
        double count = 1;
        for (size_t i = 0; i < k && i < neighbours.size(); ++i) {
            const double outcome = m_outcomes[neighbours[i]][m];
            if (outcome >= 0) {
                sum += outcome;
                count += 1;
            }
        }
        p[m] = sum / count;
    }
    return p;
}

SparseVector NearestPrompts::normalised(SparseVector x)
{
    double norm = 0;
    for (const auto& entry : x)
        norm += entry.second * entry.second;
    if (norm > 0) {
        const double scale = 1.0 / std::sqrt(norm);
        for (auto& entry : x)
            entry.second *= scale;
    }
    return x;
}

void NearestPrompts::fit(const RouterTrainingSet& set, const std::vector<int>& foldOfPrompt, int folds,
                         RouterModel& model)
{
    const size_t models = set.models.size();
    model.prompts.clear();
    for (const auto& x : set.prompts)
        model.prompts.push_back(normalised(x));
    // Share right per (prompt, model); −1 where the model did not answer.
    std::vector<std::vector<double>> right(set.prompts.size(), std::vector<double>(models, 0.0));
    std::vector<std::vector<double>> seen(set.prompts.size(), std::vector<double>(models, 0.0));
    for (const auto& a : set.answers) {
        right[a.prompt][a.model] += a.right ? 1 : 0;
        seen[a.prompt][a.model] += 1;
    }
    model.outcomes.assign(set.prompts.size(), std::vector<double>(models, -1.0));
    for (size_t p = 0; p < set.prompts.size(); ++p) {
        for (size_t m = 0; m < models; ++m) {
            if (seen[p][m] > 0)
                model.outcomes[p][m] = right[p][m] / seen[p][m];
        }
    }

    const auto& grid = RouterTrainer::kGrid();
    const size_t widest = size_t(grid.back());
    std::vector<double> loss(grid.size(), 0.0);
    for (int f = 0; f < folds; ++f) {
        std::vector<bool> include(set.prompts.size());
        std::vector<double> rightIn(models, 0.0), seenIn(models, 0.0);
        for (size_t p = 0; p < set.prompts.size(); ++p) {
            include[p] = foldOfPrompt[p] != f;
            for (size_t m = 0; include[p] && m < models; ++m) {
                rightIn[m] += right[p][m];
                seenIn[m] += seen[p][m];
            }
        }
        std::vector<double> base(models, 0.5);
        for (size_t m = 0; m < models; ++m)
            base[m] = seenIn[m] > 0 ? rightIn[m] / seenIn[m] : 0.5;
        const NearestPrompts index(model.prompts, model.outcomes, base, set.dimension, include);
        std::vector<std::vector<uint32_t>> neighbours(set.prompts.size());
        for (size_t p = 0; p < set.prompts.size(); ++p) {
            if (!include[p])
                neighbours[p] = index.nearest(model.prompts[p], widest);
        }
        for (size_t g = 0; g < grid.size(); ++g) {
            std::vector<std::vector<double>> estimates(set.prompts.size());
            for (const auto& a : set.answers) {
                if (include[a.prompt])
                    continue;
                if (estimates[a.prompt].empty())
                    estimates[a.prompt] = index.estimate(neighbours[a.prompt], size_t(grid[g]));
                const double p = std::clamp(estimates[a.prompt][a.model], 1e-6, 1 - 1e-6);
                loss[g] -= std::log(a.right ? p : 1 - p);
            }
        }
    }
    size_t best = 0;
    for (size_t g = 1; g < grid.size(); ++g) {
        if (loss[g] < loss[best] - 1e-12)
            best = g;
    }
    model.k = grid[best];
}

} // namespace conclave
