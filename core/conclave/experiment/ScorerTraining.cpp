#include "conclave/experiment/ScorerTraining.h"

#include "conclave/analysis/Auroc.h"
#include "conclave/experiment/TaskSplit.h"
#include "conclave/local/Gate.h"
#include "conclave/routing/RouterTrainer.h"
#include "conclave/routing/ScorerPredictor.h"
#include "conclave/util/NameList.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

namespace conclave {

namespace {

std::vector<RouterModel::TaskRef> taskRefs(const CalibrationSamples& samples,
                                           const std::vector<ScorerTraining::Instance>& instances)
{
    std::vector<std::string> keys;
    for (const auto& i : instances)
        keys.push_back(i.task);
    std::sort(keys.begin(), keys.end());
    keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
    std::vector<RouterModel::TaskRef> out;
    for (const auto& key : keys)
        out.push_back({samples.tasks.at(key).set, samples.tasks.at(key).task.id});
    return out;
}

RouterTrainingSet trainingSet(const CalibrationSamples& samples, const std::vector<std::string>& models,
                              const std::vector<ScorerTraining::Instance>& instances, const PromptFeatures& features)
{
    RouterTrainingSet set;
    set.models = models;
    set.dimension = features.dimension();
    set.denseFeatures = AnswerFeatures::kCount;
    std::map<std::string, size_t> promptOf;
    for (const auto& i : instances) {
        auto [at, added] = promptOf.try_emplace(i.task, set.prompts.size());
        if (added) {
            set.taskKeys.push_back(i.task);
            set.prompts.push_back(features.vector(samples.tasks.at(i.task).task.prompt));
        }
        set.answers.push_back({at->second, i.model, i.right, {i.answer.begin(), i.answer.end()}});
    }
    return set;
}

void measure(const CalibrationSamples& heldout, const std::vector<ScorerTraining::Instance>& instances,
             const ScorerPredictor& predictor, ScorerModel& model)
{
    const size_t models = model.models.size();
    std::vector<std::vector<double>> right(models), wrong(models), rightConfidence(models), wrongConfidence(models);
    std::vector<double> loss(models, 0.0);
    model.heldout.assign(models, {});
    std::map<std::string, SparseVector> prompts;
    for (const auto& i : instances) {
        auto [at, added] = prompts.try_emplace(i.task);
        if (added)
            at->second = predictor.features().vector(heldout.tasks.at(i.task).task.prompt);
        const double p = predictor.predict(i.model, at->second, i.answer);
        const double q = std::clamp(p, 1e-6, 1 - 1e-6);
        loss[i.model] -= std::log(i.right ? q : 1 - q);
        model.heldout[i.model].answers += 1;
        (i.right ? right : wrong)[i.model].push_back(p);
        (i.right ? rightConfidence : wrongConfidence)[i.model].push_back(i.confidence);
    }
    for (size_t m = 0; m < models; ++m) {
        auto& h = model.heldout[m];
        h.model = model.models[m];
        if (h.answers > 0)
            h.logLoss = loss[m] / double(h.answers);
        h.auroc = Auroc::of(std::move(right[m]), std::move(wrong[m]));
        h.confidenceAuroc = Auroc::of(std::move(rightConfidence[m]), std::move(wrongConfidence[m]));
    }
}

} // namespace

std::vector<std::string> ScorerTraining::byAccuracy(const CalibrationSamples& samples)
{
    std::map<std::string, std::pair<int64_t, int64_t>> tally; // right, answers
    for (const auto& a : samples.answers) {
        tally[a.model].first += a.correct ? 1 : 0;
        tally[a.model].second += 1;
    }
    std::vector<std::pair<double, std::string>> ranked;
    for (const auto& [model, counts] : tally)
        ranked.emplace_back(double(counts.first) / double(counts.second), model);
    std::sort(ranked.begin(), ranked.end());
    std::vector<std::string> out;
    for (const auto& [share, model] : ranked)
        out.push_back(model);
    return out;
}

std::vector<ScorerTraining::Instance> ScorerTraining::instances(const CalibrationSamples& samples,
                                                                const std::vector<std::string>& models)
{
    std::map<std::string, size_t> memberOf;
    for (size_t m = 0; m < models.size(); ++m)
        memberOf.emplace(models[m], m);
    // (experiment, seed, task) → each member's first answer there.
    std::map<std::tuple<size_t, uint64_t, std::string>, std::vector<const CalibrationSamples::Answer*>> cascades;
    for (const auto& a : samples.answers) {
        const auto member = memberOf.find(a.model);
        if (member == memberOf.end())
            continue;
        auto& answers = cascades[{a.experiment, a.seed, a.task}];
        answers.resize(models.size(), nullptr);
        if (!answers[member->second])
            answers[member->second] = &a;
    }
    std::vector<Instance> out;
    for (const auto& [key, answers] : cascades) {
        if (std::any_of(answers.begin(), answers.end(), [](const auto* a) { return a == nullptr; }))
            continue;
        const auto& prompt = samples.tasks.at(std::get<2>(key)).task.prompt;
        std::vector<std::string> earlier;
        for (size_t m = 0; m < answers.size(); ++m) {
            const auto& a = *answers[m];
            AnswerFeatures::Inputs in;
            in.prompt = prompt;
            in.answer = a.answer;
            in.answerLine = a.answerLine;
            in.confidence = a.confidence;
            in.same = AnswerFeatures::sameAs(a.answer, earlier);
            in.asked = int(m);
            out.push_back({a.task, m, a.correct, a.confidence, AnswerFeatures::of(in)});
            earlier.push_back(a.answer);
        }
    }
    return out;
}

std::optional<ScorerTraining::Result> ScorerTraining::fromSamples(const CalibrationSamples& train,
                                                                  const CalibrationSamples* heldout,
                                                                  const Options& options,
                                                                  std::shared_ptr<const Gate> gate, std::string& error)
{
    if (!gate) {
        error = "no gate to compute prompt features with";
        return std::nullopt;
    }
    auto answering = byAccuracy(train);
    if (answering.empty()) {
        error = "these experiments hold no scored answer to train on (a scorer learns from trials whose experts "
                "answered tasks with reference answers)";
        return std::nullopt;
    }
    const auto models = options.models.empty() ? answering : options.models;
    std::sort(answering.begin(), answering.end());
    for (const auto& model : models) {
        if (!std::binary_search(answering.begin(), answering.end(), model)) {
            error = "model \"" + model +
                    "\" gave no scored answer in these experiments (answering: " + commaJoined(answering) + ")";
            return std::nullopt;
        }
    }
    const auto steps = instances(train, models);
    if (steps.empty()) {
        error = "no task and seed of one experiment was answered by every one of " + commaJoined(models) +
                ": a scorer learns from trials in which the cascade's models answered the same task";
        return std::nullopt;
    }

    const PromptFeatures features(*gate);
    RouterTrainer::Options trainerOptions;
    trainerOptions.seed = options.seed;
    trainerOptions.threads = options.threads;
    // Each step's score is read against a threshold on its own, never against
    // another step's: nothing to gain from weights common to the steps.
    trainerOptions.weights = RouterTrainer::Weights::Separate;
    const auto trained = RouterTrainer::train(trainingSet(train, models, steps, features), trainerOptions);
    Result result;
    auto& model = result.model;
    model.models = models;
    model.answers = trained.answers;
    model.baseRates = trained.baseRates;
    model.linear = trained.linear;
    model.buckets = static_cast<uint32_t>(gate->buckets());
    model.domains = gate->domains();
    model.experiments = train.experiments;
    model.tasks = taskRefs(train, steps);
    model.holdout = options.holdout;
    model.seed = options.seed;
    for (size_t m = 0; m < models.size(); ++m) {
        if (model.answers[m] < kFewAnswers)
            result.warnings.push_back("model " + models[m] + " had only " + std::to_string(model.answers[m]) +
                                      " training answers (fewer than " + std::to_string(kFewAnswers) +
                                      "): its scores rest on little");
    }
    if (!heldout)
        return result;
    const auto tested = instances(*heldout, models);
    model.heldoutTasks = taskRefs(*heldout, tested);
    if (tested.empty()) {
        result.warnings.push_back("no held-out task and seed was answered by every model: nothing was measured");
        return result;
    }
    auto predictor = ScorerPredictor::make(model, gate, error);
    if (!predictor)
        return std::nullopt;
    measure(*heldout, tested, *predictor, model);
    return result;
}

std::optional<ScorerTraining::Result> ScorerTraining::run(RunQueries& store, const Options& options,
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
        return
            [split, wanted](std::string_view hash, std::string_view id) { return split->partOf(hash, id) == wanted; };
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
