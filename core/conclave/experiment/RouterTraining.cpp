#include "conclave/experiment/RouterTraining.h"

#include "conclave/analysis/Auroc.h"
#include "conclave/analysis/Quantile.h"
#include "conclave/engine/DeterministicRandom.h"
#include "conclave/experiment/TaskSplit.h"
#include "conclave/local/Gate.h"
#include "conclave/routing/RouterPredictor.h"
#include "conclave/routing/RouterTrainer.h"
#include "conclave/util/NameList.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>

namespace conclave {

namespace {

std::string fixed2(double value)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.2f", value);
    return text;
}

// The tasks (keys, in key order) that every model answered at least once.
std::vector<std::string> sharedTasks(const CalibrationSamples& samples, const std::vector<std::string>& models)
{
    std::map<std::string, std::set<std::string>> answered;
    for (const auto& a : samples.answers)
        answered[a.task].insert(a.model);
    std::vector<std::string> out;
    for (const auto& entry : answered) {
        const auto& who = entry.second; // not a structured binding: clang 14 (make fuzz) cannot capture one
        if (std::all_of(models.begin(), models.end(), [&](const auto& m) { return who.count(m) > 0; }))
            out.push_back(entry.first);
    }
    return out;
}

enum class Features { Prompt, DomainOnly };

RouterTrainingSet trainingSet(const CalibrationSamples& samples, const std::vector<std::string>& models,
                              const std::vector<std::string>& tasks, const PromptFeatures& features, Features kind)
{
    RouterTrainingSet set;
    set.models = models;
    set.dimension = features.dimension();
    std::map<std::string, size_t> promptOf;
    for (const auto& key : tasks) {
        const auto& prompt = samples.tasks.at(key).task.prompt;
        promptOf[key] = set.prompts.size();
        set.taskKeys.push_back(key);
        set.prompts.push_back(kind == Features::Prompt ? features.vector(prompt) : features.domainOnly(prompt));
    }
    std::map<std::string, size_t> modelOf;
    for (size_t m = 0; m < models.size(); ++m)
        modelOf[models[m]] = m;
    for (const auto& a : samples.answers) {
        const auto p = promptOf.find(a.task);
        const auto m = modelOf.find(a.model);
        if (p != promptOf.end() && m != modelOf.end())
            set.answers.push_back({p->second, m->second, a.correct, {}});
    }
    return set;
}

// One predictor's held-out predictions: p per answer, in set.answers order.
std::vector<double> predictions(const RouterPredictor& predictor, const RouterTrainingSet& set)
{
    std::vector<std::vector<double>> perPrompt(set.prompts.size());
    for (size_t p = 0; p < set.prompts.size(); ++p)
        perPrompt[p] = predictor.predict(set.prompts[p]);
    std::vector<double> out;
    out.reserve(set.answers.size());
    for (const auto& a : set.answers)
        out.push_back(perPrompt[a.prompt][a.model]);
    return out;
}

// Mean over models of AUROC, each prompt counted `weight[prompt]` times (a bootstrap resample).
std::optional<double> meanAuroc(const RouterTrainingSet& set, const std::vector<double>& p,
                                const std::vector<int>& weight, std::vector<std::optional<double>>* perModel = nullptr)
{
    const size_t models = set.models.size();
    std::vector<std::vector<double>> positives(models), negatives(models);
    for (size_t i = 0; i < set.answers.size(); ++i) {
        const auto& a = set.answers[i];
        for (int w = 0; w < weight[a.prompt]; ++w)
            (a.right ? positives : negatives)[a.model].push_back(p[i]);
    }
    double sum = 0;
    int counted = 0;
    for (size_t m = 0; m < models; ++m) {
        const auto auroc = Auroc::of(std::move(positives[m]), std::move(negatives[m]));
        if (perModel)
            perModel->push_back(auroc);
        if (auroc) {
            sum += *auroc;
            ++counted;
        }
    }
    if (counted == 0)
        return std::nullopt;
    return sum / counted;
}

std::vector<RouterModel::HeldOut> heldOutFigures(const RouterTrainingSet& set, const std::vector<double>& p,
                                                 const std::vector<double>& domainP)
{
    std::vector<RouterModel::HeldOut> out(set.models.size());
    std::vector<double> loss(set.models.size(), 0.0);
    for (size_t i = 0; i < set.answers.size(); ++i) {
        const auto& a = set.answers[i];
        const double q = std::clamp(p[i], 1e-6, 1 - 1e-6);
        loss[a.model] -= std::log(a.right ? q : 1 - q);
        out[a.model].answers += 1;
    }
    const std::vector<int> once(set.prompts.size(), 1);
    std::vector<std::optional<double>> auroc, domainAuroc;
    meanAuroc(set, p, once, &auroc);
    meanAuroc(set, domainP, once, &domainAuroc);
    for (size_t m = 0; m < out.size(); ++m) {
        out[m].model = set.models[m];
        if (out[m].answers > 0)
            out[m].logLoss = loss[m] / double(out[m].answers);
        out[m].auroc = auroc[m];
        out[m].domainAuroc = domainAuroc[m];
    }
    return out;
}

// The paired bootstrap's 95 % percentile CI of mean AUROC(p) − mean AUROC(domainP), over prompts.
std::optional<std::pair<double, double>> gainInterval(const RouterTrainingSet& set, const std::vector<double>& p,
                                                      const std::vector<double>& domainP, uint64_t seed)
{
    const size_t prompts = set.prompts.size();
    std::vector<double> gains;
    for (int r = 0; r < RouterTraining::kResamples; ++r) {
        std::vector<int> weight(prompts, 0);
        const auto key = DeterministicRandom::key({"router-gain", std::to_string(r)}, seed);
        for (size_t i = 0; i < prompts; ++i)
            ++weight[std::min(prompts - 1, size_t(DeterministicRandom::unit(key, i) * double(prompts)))];
        const auto a = meanAuroc(set, p, weight);
        const auto b = meanAuroc(set, domainP, weight);
        if (a && b)
            gains.push_back(*a - *b);
    }
    if (gains.empty())
        return std::nullopt;
    std::sort(gains.begin(), gains.end());
    return std::pair{Quantile::of(gains, 0.025), Quantile::of(gains, 0.975)};
}

} // namespace

std::vector<std::string> RouterTraining::answeringModels(const CalibrationSamples& samples)
{
    std::set<std::string> names;
    for (const auto& a : samples.answers)
        names.insert(a.model);
    return {names.begin(), names.end()};
}

std::optional<RouterTraining::Result> RouterTraining::fromSamples(const CalibrationSamples& train,
                                                                  const CalibrationSamples* heldout,
                                                                  const Options& options,
                                                                  std::shared_ptr<const Gate> gate,
                                                                  std::string& error)
{
    if (!gate) {
        error = "no gate to compute prompt features with";
        return std::nullopt;
    }
    const std::vector<std::string> answering = answeringModels(train);
    if (answering.empty()) {
        error = "these experiments hold no scored answer to train on (a router learns from trials whose "
                "experts answered tasks with reference answers)";
        return std::nullopt;
    }
    std::vector<std::string> models = options.models.empty() ? answering : options.models;
    for (const auto& model : models) {
        if (std::find(answering.begin(), answering.end(), model) == answering.end()) {
            error = "model \"" + model + "\" gave no scored answer in these experiments (answering: " +
                    commaJoined(answering) + ")";
            return std::nullopt;
        }
    }
    if (models.size() < 2) {
        error = "a router chooses between models: name at least two (answering: " + commaJoined(answering) + ")";
        return std::nullopt;
    }
    const auto tasks = sharedTasks(train, models);
    if (tasks.empty()) {
        error = "no task was answered by every one of " + commaJoined(models) +
                ": a router learns from trials in which the candidate models answered the same tasks";
        return std::nullopt;
    }

    const PromptFeatures features(*gate);
    RouterTrainer::Options trainerOptions;
    trainerOptions.method = options.method;
    trainerOptions.weights = options.weights;
    trainerOptions.seed = options.seed;
    trainerOptions.threads = options.threads;
    const auto set = trainingSet(train, models, tasks, features, Features::Prompt);
    Result result;
    result.model = RouterTrainer::train(set, trainerOptions);
    auto& model = result.model;
    model.buckets = static_cast<uint32_t>(gate->buckets());
    model.domains = gate->domains();
    model.experiments = train.experiments;
    model.holdout = options.holdout;
    model.seed = options.seed;
    for (const auto& key : tasks)
        model.tasks.push_back({train.tasks.at(key).set, train.tasks.at(key).task.id});
    for (size_t m = 0; m < models.size(); ++m) {
        if (model.answers[m] < kFewAnswers)
            result.warnings.push_back("model " + models[m] + " had only " + std::to_string(model.answers[m]) +
                                      " training answers (fewer than " + std::to_string(kFewAnswers) +
                                      "): its predictions rest on little");
    }

    if (!heldout)
        return result;
    const auto testTasks = sharedTasks(*heldout, models);
    for (const auto& key : testTasks)
        model.heldoutTasks.push_back({heldout->tasks.at(key).set, heldout->tasks.at(key).task.id});
    if (testTasks.empty()) {
        result.warnings.push_back("no held-out task was answered by every model: nothing was measured");
        return result;
    }
    auto predictor = RouterPredictor::make(model, gate, error);
    if (!predictor)
        return std::nullopt;
    const auto testSet = trainingSet(*heldout, models, testTasks, features, Features::Prompt);
    const auto p = predictions(*predictor, testSet);

    auto domainModel = RouterTrainer::train(trainingSet(train, models, tasks, features, Features::DomainOnly),
                                            trainerOptions);
    domainModel.buckets = model.buckets;
    domainModel.domains = model.domains;
    auto domainPredictor = RouterPredictor::make(std::move(domainModel), gate, error);
    if (!domainPredictor)
        return std::nullopt;
    // The same answers in the same order: only the prompts' features differ.
    const auto domainP =
        predictions(*domainPredictor, trainingSet(*heldout, models, testTasks, features, Features::DomainOnly));

    model.heldout = heldOutFigures(testSet, p, domainP);
    const std::vector<int> once(testSet.prompts.size(), 1);
    result.auroc = meanAuroc(testSet, p, once);
    result.domainAuroc = meanAuroc(testSet, domainP, once);
    result.gainCi = gainInterval(testSet, p, domainP, options.seed);
    if (result.auroc && result.domainAuroc && result.gainCi && result.gainCi->first <= 0)
        result.domainNote = "the prompt adds nothing over the domain: AUROC " + fixed2(*result.auroc) + " vs " +
                            fixed2(*result.domainAuroc) + " domain-only";
    return result;
}

std::optional<RouterTraining::Result> RouterTraining::run(RunQueries& store, const Options& options,
                                                          const std::filesystem::path& resourcesDir,
                                                          std::shared_ptr<const Gate> gate, std::string& error)
{
    if (options.holdout <= 0) {
        auto all = CalibrationSamples::read(store, options.experiments, resourcesDir, error);
        if (!all)
            return std::nullopt;
        return fromSamples(*all, nullptr, options, std::move(gate), error);
    }
    auto split = TaskSplit::holdout(options.holdout, options.seed, error);
    if (!split)
        return std::nullopt;
    const auto part = [&](size_t wanted) {
        return [split, wanted](std::string_view hash, std::string_view id) { return split->partOf(hash, id) == wanted; };
    };
    auto train = CalibrationSamples::read(store, options.experiments, resourcesDir, error, part(0));
    if (!train)
        return std::nullopt;
    auto heldout = CalibrationSamples::read(store, options.experiments, resourcesDir, error, part(1));
    if (!heldout)
        return std::nullopt;
    return fromSamples(*train, &*heldout, options, std::move(gate), error);
}

} // namespace conclave
