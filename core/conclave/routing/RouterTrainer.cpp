#include "conclave/routing/RouterTrainer.h"

#include "conclave/io/ContentHash.h"
#include "conclave/routing/NearestPrompts.h"

#include <linear.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <memory>
#include <functional>
#include <optional>
#include <mutex>
#include <thread>

namespace conclave {

namespace {

constexpr double kEps = 0.01;         // liblinear's default for L2R_LR: the final fit
constexpr double kSelectionEps = 0.1;  // the folds' fits, which only rank the C values
constexpr size_t kPatience = 2;      // grid points past the best C with a higher loss before the walk stops
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
    // common: every model's answers in one problem, the prompt's features once
    // (weights every model shares) and an indicator of the answering model
    // (each model's own bias); see RouterTrainer::Weights.
    LinearProblem(const RouterTrainingSet& set, const std::vector<size_t>& answers, uint32_t features, bool common)
        : m_dimension(common ? features + uint32_t(set.models.size()) : features)
    {
        m_rows.reserve(answers.size());
        m_labels.reserve(answers.size());
        for (const size_t a : answers) {
            const auto& answer = set.answers[a];
            const auto& x = set.prompts[answer.prompt];
            std::vector<feature_node> row;
            row.reserve(x.size() + answer.dense.size() + 3);
            for (const auto& [index, value] : x)
                row.push_back({static_cast<int>(index) + 1, value});
            for (size_t k = 0; k < answer.dense.size() && set.dimension + k < features; ++k) {
                if (answer.dense[k] != 0.0)
                    row.push_back({static_cast<int>(set.dimension + k) + 1, answer.dense[k]});
            }
            if (common)
                row.push_back({static_cast<int>(features + answer.model) + 1, 1.0});
            row.push_back({static_cast<int>(m_dimension) + 1, 1.0});
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
    uint32_t dimension() const { return m_dimension; }
    bool right(size_t row) const { return m_labels[row] > 0; }

private:
    uint32_t m_dimension;
    std::vector<std::vector<feature_node>> m_rows;
    std::vector<double> m_labels;
};

// Runs `work(i)` for i in [0, n) on up to `threads` threads.
void parallelFor(size_t n, unsigned threads, const std::function<void(size_t)>& work)
{
    std::atomic<size_t> next{0};
    const auto worker = [&] {
        for (size_t i = next++; i < n; i = next++)
            work(i);
    };
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < std::max(1u, threads) && t < n; ++t)
        pool.emplace_back(worker);
    worker();
    for (auto& thread : pool)
        thread.join();
}

struct Selection {
    double c = 0;
    double loss = 0;               // the summed held-out log loss at c
    std::vector<double> heldOut;   // each row's held-out prediction at c (−1 for a row no fold held out)
    std::vector<double> start;     // the folds' mean weights at c: where the final fit starts
};

// The C of RouterTrainer::cGrid with the smallest held-out log loss over the
// folds (ties: the smaller C). The grid is walked upwards, each fold's fit
// starting from its fit at the C before, and the walk stops once the loss has
// risen at kPatience grid points in a row past the best (the loss of an L2
// logistic regression against C falls, then rises; the larger C fits converge
// slowest). The folds of one C run on up to `threads` threads.
Selection chooseC(const LinearProblem& problem, const std::vector<int>& foldOfRow, int folds, unsigned threads)
{
    const auto& grid = RouterTrainer::cGrid();
    std::vector<std::vector<bool>> use(size_t(folds), std::vector<bool>(problem.size()));
    std::vector<bool> anyHeldOut(size_t(folds), false);
    for (size_t f = 0; f < size_t(folds); ++f) {
        for (size_t i = 0; i < problem.size(); ++i) {
            use[f][i] = foldOfRow[i] != int(f);
            anyHeldOut[f] = anyHeldOut[f] || !use[f][i];
        }
    }
    std::vector<std::vector<double>> weights(static_cast<size_t>(folds)); // each fold's fit at the current C
    Selection best;
    size_t bestAt = 0, risen = 0;
    for (size_t g = 0; g < grid.size() && risen < kPatience; ++g) {
        std::vector<double> loss(size_t(folds), 0.0);
        std::vector<double> predicted(problem.size(), -1.0); // each row is held out by one fold, which alone writes it
        parallelFor(size_t(folds), threads, [&](size_t f) {
            if (!anyHeldOut[f])
                return;
            weights[f] = problem.train(use[f], grid[g], kSelectionEps, &weights[f]);
            for (size_t i = 0; i < problem.size(); ++i) {
                if (!use[f][i]) {
                    predicted[i] = problem.predict(weights[f], i);
                    loss[f] += logLoss(predicted[i], problem.right(i));
                }
            }
        });
        double total = 0;
        for (const double l : loss) // summed in fold order: the same figure on any number of threads
            total += l;
        if (g == 0 || total < best.loss - 1e-12) {
            best.c = grid[g];
            best.loss = total;
            best.heldOut = std::move(predicted);
            best.start.assign(problem.dimension() + 1, 0.0);
            int fitted = 0;
            for (const auto& w : weights) {
                if (w.empty())
                    continue;
                for (size_t j = 0; j < w.size(); ++j)
                    best.start[j] += w[j];
                ++fitted;
            }
            for (double& x : best.start)
                x /= std::max(fitted, 1);
            bestAt = g;
            risen = 0;
        } else {
            risen = g - bestAt;
        }
    }
    return best;
}

// A model's Linear from w's first `features` weights and the given bias.
RouterModel::Linear unpack(const std::vector<double>& w, double c, uint32_t features, double bias)
{
    RouterModel::Linear linear;
    linear.c = c;
    linear.bias = bias;
    for (uint32_t j = 0; j < features; ++j) {
        if (w[j] != 0.0)
            linear.weights.emplace_back(j, w[j]);
    }
    return linear;
}

// How well held-out predictions tell models apart: over every prompt and pair
// of models that both answered it, the mean of ((p̂ᵢ − p̂ⱼ) − (yᵢ − yⱼ))², p̂ a
// model's mean held-out prediction there and y its share right. A router acts
// on such differences (which model is likelier to be right), not on one
// model's chance alone.
double differenceError(const RouterTrainingSet& set, const std::vector<double>& predictionOfAnswer)
{
    const size_t models = set.models.size();
    // [prompt][model]: summed prediction, summed outcome, answers
    std::vector<std::vector<std::array<double, 3>>> sums(set.prompts.size(),
                                                        std::vector<std::array<double, 3>>(models, {0, 0, 0}));
    for (size_t a = 0; a < set.answers.size(); ++a) {
        if (predictionOfAnswer[a] < 0)
            continue;
        auto& cell = sums[set.answers[a].prompt][set.answers[a].model];
        cell[0] += predictionOfAnswer[a];
        cell[1] += set.answers[a].right ? 1.0 : 0.0;
        cell[2] += 1;
    }
    double error = 0;
    size_t pairs = 0;
    for (const auto& prompt : sums) {
        for (size_t i = 0; i < models; ++i) {
            for (size_t j = i + 1; j < models; ++j) {
                if (prompt[i][2] == 0 || prompt[j][2] == 0)
                    continue;
                const double predicted = prompt[i][0] / prompt[i][2] - prompt[j][0] / prompt[j][2];
                const double observed = prompt[i][1] / prompt[i][2] - prompt[j][1] / prompt[j][2];
                error += (predicted - observed) * (predicted - observed);
                ++pairs;
            }
        }
    }
    return pairs ? error / double(pairs) : 0.0;
}

RouterModel::Linear fitSeparate(const LinearProblem& problem, Selection selection, uint32_t features)
{
    const auto w = problem.train(std::vector<bool>(problem.size(), true), selection.c, kEps, &selection.start);
    return unpack(w, selection.c, features, w.back());
}

// Every model at once: the prompt's weights are common, a model's bias is the
// problem's bias plus its indicator's weight.
std::vector<RouterModel::Linear> fitCommon(const LinearProblem& problem, Selection selection, uint32_t features,
                                           size_t models)
{
    const auto w = problem.train(std::vector<bool>(problem.size(), true), selection.c, kEps, &selection.start);
    std::vector<RouterModel::Linear> linear;
    for (size_t m = 0; m < models; ++m)
        linear.push_back(unpack(w, selection.c, features, w.back() + w[features + m]));
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
    const bool trySeparate = options.weights != Weights::Common || models < 2;
    const bool tryCommon = options.weights != Weights::Separate && models >= 2;
    std::vector<std::unique_ptr<LinearProblem>> separate(models);
    std::vector<Selection> separateSelection(models);
    if (trySeparate) {
        parallelFor(models, options.threads, [&](size_t m) {
            std::vector<int> folds;
            for (const size_t a : byModel[m])
                folds.push_back(foldOfPrompt[set.answers[a].prompt]);
            separate[m] = std::make_unique<LinearProblem>(set, byModel[m], dimension, false);
            separateSelection[m] = chooseC(*separate[m], folds, options.folds, 1);
        });
    }
    std::unique_ptr<LinearProblem> common;
    Selection commonSelection;
    if (tryCommon) {
        std::vector<size_t> all(set.answers.size());
        std::vector<int> folds;
        for (size_t a = 0; a < all.size(); ++a) {
            all[a] = a;
            folds.push_back(foldOfPrompt[set.answers[a].prompt]);
        }
        common = std::make_unique<LinearProblem>(set, all, dimension, true);
        commonSelection = chooseC(*common, folds, options.folds, options.threads);
    }
    if (trySeparate && tryCommon) {
        std::vector<double> separatePrediction(set.answers.size(), -1.0);
        for (size_t m = 0; m < models; ++m)
            for (size_t k = 0; k < byModel[m].size(); ++k)
                separatePrediction[byModel[m][k]] = separateSelection[m].heldOut[k];
        model.pooling = RouterModel::Pooling{differenceError(set, separatePrediction),
                                             differenceError(set, commonSelection.heldOut)};
    }
    model.commonWeights = tryCommon && (!trySeparate || model.pooling->common < model.pooling->separate - 1e-12);
    if (model.commonWeights) {
        model.linear = fitCommon(*common, std::move(commonSelection), dimension, models);
        return model;
    }
    parallelFor(models, options.threads,
                [&](size_t m) { model.linear[m] = fitSeparate(*separate[m], std::move(separateSelection[m]), dimension); });
    return model;
}

} // namespace conclave
