#include "conclave/routing/RouterTrainer.h"

#include "conclave/io/ContentHash.h"
#include "conclave/routing/NearestPrompts.h"

#include <linear.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <mutex>
#include <thread>

namespace conclave {

namespace {

constexpr double kEps = 0.01;         // liblinear's default for L2R_LR: the final fit
constexpr double kSelectionEps = 0.1;  // the folds' fits, which only rank the C values
constexpr double kClamp = 1e-6; // p kept in [1e-6, 1 − 1e-6] for the log loss

void quiet(const char*) {}

void silenceLiblinear()
{
    static std::once_flag once;
    std::call_once(once, [] { set_print_string_function(&quiet); });
}

double logLoss(double p, bool right)
{
    p = std::clamp(p, kClamp, 1 - kClamp);
    return -std::log(right ? p : 1 - p);
}

double sigmoid(double z)
{
    return z >= 0 ? 1.0 / (1.0 + std::exp(-z)) : std::exp(z) / (1.0 + std::exp(z));
}

// One model's answers as liblinear wants them: 1-based indices, a bias node, a terminator.
class LinearProblem {
public:
    LinearProblem(const RouterTrainingSet& set, const std::vector<size_t>& answers, uint32_t dimension)
        : m_dimension(dimension)
    {
        m_rows.reserve(answers.size());
        m_labels.reserve(answers.size());
        for (const size_t a : answers) {
            const auto& answer = set.answers[a];
            const auto& x = set.prompts[answer.prompt];
            std::vector<feature_node> row;
            row.reserve(x.size() + answer.dense.size() + 2);
            for (const auto& [index, value] : x)
                row.push_back({static_cast<int>(index) + 1, value});
            for (size_t k = 0; k < answer.dense.size() && set.dimension + k < dimension; ++k) {
                if (answer.dense[k] != 0.0)
                    row.push_back({static_cast<int>(set.dimension + k) + 1, answer.dense[k]});
            }
            row.push_back({static_cast<int>(dimension) + 1, 1.0});
            row.push_back({-1, 0.0});
            m_rows.push_back(std::move(row));
            m_labels.push_back(answer.right ? 1.0 : -1.0);
        }
    }

    // Trains on the rows `use` keeps; w has dimension + 1 entries (the bias last),
    // oriented so that w·x is the log-odds of a right answer.
    std::vector<double> train(const std::vector<bool>& use, double c, double eps, std::vector<double>* start) const
    {
        std::vector<feature_node*> x;
        std::vector<double> y;
        int positives = 0;
        for (size_t i = 0; i < m_rows.size(); ++i) {
            if (!use[i])
                continue;
            x.push_back(const_cast<feature_node*>(m_rows[i].data()));
            y.push_back(m_labels[i]);
            positives += m_labels[i] > 0 ? 1 : 0;
        }
        std::vector<double> w(size_t(m_dimension) + 1, 0.0);
        if (positives == 0 || positives == static_cast<int>(y.size())) {
            // One class only: a constant at the smoothed rate.
            const double rate = (positives + 0.5) / (double(y.size()) + 1.0);
            w.back() = std::log(rate / (1 - rate));
            return w;
        }
        problem prob{};
        prob.l = static_cast<int>(y.size());
        prob.n = static_cast<int>(m_dimension) + 1;
        prob.y = y.data();
        prob.x = x.data();
        prob.bias = 1.0;
        parameter param{};
        param.solver_type = L2R_LR;
        param.eps = eps;
        param.C = c;
        param.init_sol = start && start->size() == w.size() ? start->data() : nullptr;
        model* trained = ::train(&prob, &param);
        const double sign = trained->label[0] > 0 ? 1.0 : -1.0;
        for (size_t j = 0; j < w.size() && j < size_t(trained->nr_feature) + 1; ++j)
            w[j] = sign * trained->w[j];
        free_and_destroy_model(&trained);
        if (start)
            *start = w;
        return w;
    }

    double predict(const std::vector<double>& w, size_t row) const
    {
        double z = 0;
        for (const auto& node : m_rows[row]) {
            if (node.index < 0)
                break;
            z += w[size_t(node.index) - 1] * node.value;
        }
        return sigmoid(z);
    }

    size_t size() const { return m_rows.size(); }
    bool right(size_t row) const { return m_labels[row] > 0; }

private:
    uint32_t m_dimension;
    std::vector<std::vector<feature_node>> m_rows;
    std::vector<double> m_labels;
};

RouterModel::Linear fitLinear(const RouterTrainingSet& set, const std::vector<size_t>& answers,
                              const std::vector<int>& foldOfAnswer, int folds, uint32_t dimension)
{
    const LinearProblem problem(set, answers, dimension);
    const auto& grid = RouterTrainer::cGrid();
    std::vector<double> loss(grid.size(), 0.0);
    for (int f = 0; f < folds; ++f) {
        std::vector<bool> use(problem.size());
        bool any = false;
        for (size_t i = 0; i < problem.size(); ++i) {
            use[i] = foldOfAnswer[i] != f;
            any = any || !use[i];
        }
        if (!any)
            continue;
        std::vector<double> start; // warm start along the C grid
        for (size_t g = 0; g < grid.size(); ++g) {
            const auto w = problem.train(use, grid[g], kSelectionEps, &start);
            for (size_t i = 0; i < problem.size(); ++i) {
                if (!use[i])
                    loss[g] += logLoss(problem.predict(w, i), problem.right(i));
            }
        }
    }
    size_t best = 0;
    for (size_t g = 1; g < grid.size(); ++g) {
        if (loss[g] < loss[best] - 1e-12)
            best = g;
    }
    RouterModel::Linear linear;
    linear.c = grid[best];
    const auto w = problem.train(std::vector<bool>(problem.size(), true), linear.c, kEps, nullptr);
    linear.bias = w.back();
    for (uint32_t j = 0; j < dimension; ++j) {
        if (w[j] != 0.0)
            linear.weights.emplace_back(j, w[j]);
    }
    return linear;
}

} // namespace

const std::vector<double>& RouterTrainer::cGrid()
{
    static const std::vector<double> grid{0.015625, 0.0625, 0.25, 1.0, 4.0, 16.0, 64.0};
    return grid;
}

const std::vector<int>& RouterTrainer::kGrid()
{
    static const std::vector<int> grid{5, 10, 20, 40};
    return grid;
}

int RouterTrainer::foldOf(const std::string& taskKey, uint64_t seed, int folds)
{
    const uint64_t bits = std::stoull(contentHash(std::to_string(seed) + "\nfold\n" + taskKey), nullptr, 16);
    return static_cast<int>(bits % static_cast<uint64_t>(std::max(folds, 1)));
}

RouterModel RouterTrainer::train(const RouterTrainingSet& set, const Options& options)
{
    silenceLiblinear();
    RouterModel model;
    model.method = options.method;
    model.models = set.models;
    const size_t models = set.models.size();
    std::vector<std::vector<size_t>> byModel(models);
    for (size_t a = 0; a < set.answers.size(); ++a)
        byModel[set.answers[a].model].push_back(a);
    model.answers.assign(models, 0);
    model.baseRates.assign(models, 0.5);
    for (size_t m = 0; m < models; ++m) {
        int64_t right = 0;
        for (const size_t a : byModel[m])
            right += set.answers[a].right ? 1 : 0;
        model.answers[m] = static_cast<int64_t>(byModel[m].size());
        if (!byModel[m].empty())
            model.baseRates[m] = double(right) / double(byModel[m].size());
    }
    std::vector<int> foldOfPrompt(set.prompts.size());
    for (size_t p = 0; p < set.prompts.size(); ++p)
        foldOfPrompt[p] = foldOf(set.taskKeys[p], options.seed, options.folds);

    if (options.method == RouterModel::Method::Knn) {
        NearestPrompts::fit(set, foldOfPrompt, options.folds, model);
        return model;
    }

    const uint32_t dimension = set.dimension + set.denseFeatures;
    model.linear.assign(models, {});
    std::atomic<size_t> next{0};
    const auto work = [&] {
        for (size_t m = next++; m < models; m = next++) {
            std::vector<int> folds;
            for (const size_t a : byModel[m])
                folds.push_back(foldOfPrompt[set.answers[a].prompt]);
            model.linear[m] = fitLinear(set, byModel[m], folds, options.folds, dimension);
        }
    };
    std::vector<std::thread> threads;
    for (unsigned t = 1; t < std::max(1u, options.threads) && t < models; ++t)
        threads.emplace_back(work);
    work();
    for (auto& thread : threads)
        thread.join();
    return model;
}

} // namespace conclave
