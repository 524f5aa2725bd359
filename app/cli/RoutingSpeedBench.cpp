// `conclave bench routing` (speed): training a router on 5 models × 1,000 tasks,
// and routing one 1,000-character prompt by logistic weights and by 5,000 knn prompts.
#include "Commands.h"
#include "FixedText.h"

#include "conclave/analysis/Quantile.h"
#include "conclave/engine/DeterministicRandom.h"
#include "conclave/experiment/RouterTraining.h"
#include "conclave/local/Gate.h"
#include "conclave/local/TaskSet.h"
#include "conclave/routing/NearestPrompts.h"
#include "conclave/routing/RouterPredictor.h"

#include <chrono>
#include <cmath>

namespace conclave::cli {

namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start)
{
    return std::chrono::duration<double>(Clock::now() - start).count();
}

// The bundled prompts, cycled to `count` (later rounds tagged so every prompt differs).
std::vector<std::string> prompts(const std::filesystem::path& resources, size_t count)
{
    std::vector<std::string> bundled;
    for (const char* set : {"math", "code", "facts", "writing", "reasoning"}) {
        const auto loaded = TaskSet::load(resources / "tasksets" / (std::string(set) + ".jsonl"));
        if (loaded.tasks) {
            for (const auto& task : loaded.tasks->tasks())
                bundled.push_back(task.prompt);
        }
    }
    std::vector<std::string> out;
    for (size_t i = 0; i < count && !bundled.empty(); ++i)
        out.push_back(bundled[i % bundled.size()] +
                      (i < bundled.size() ? "" : " (variant " + std::to_string(i / bundled.size()) + ")"));
    return out;
}

// 5 models answer every task with 2 seeds (as bench calibrate); P(right) falls with a difficulty read off the prompt's words.
CalibrationSamples drawn(const std::vector<std::string>& texts)
{
    CalibrationSamples samples;
    samples.experiments = {"bench"};
    const double abilities[5] = {1.5, 1.0, 0.5, 0.0, -0.5};
    for (size_t t = 0; t < texts.size(); ++t) {
        const std::string id = "t" + std::to_string(t);
        const std::string key = "bench\n" + id;
        samples.tasks[key] = {"bench", Task{.id = id, .domain = "general", .prompt = texts[t], .answer = "x"}};
        double readable = 0;
        for (const auto& word : Gate::features(texts[t]))
            readable += DeterministicRandom::normal(DeterministicRandom::key({"word", word}, 7), 1);
        readable /= std::sqrt(double(std::max<size_t>(Gate::features(texts[t]).size(), 1)));
        for (int m = 0; m < 5; ++m) {
            for (uint64_t seed = 1; seed <= 2; ++seed) {
                const auto draw = DeterministicRandom::key({id, std::to_string(m), std::to_string(seed)}, 7);
                CalibrationSamples::Answer answer;
                answer.model = "m" + std::to_string(m);
                answer.task = key;
                answer.seed = seed;
                answer.correct = DeterministicRandom::unit(draw, 1) < 1 / (1 + std::exp(readable - abilities[m]));
                samples.answers.push_back(answer);
            }
        }
    }
    return samples;
}

template <typename F>
double medianSeconds(int runs, F&& work)
{
    std::vector<double> times;
    for (int r = 0; r < runs; ++r) {
        const auto start = Clock::now();
        work();
        times.push_back(secondsSince(start));
    }
    return Quantile::median(times);
}

} // namespace

int routingSpeedBench(const CliContext& context, Engine& engine, const BenchArgs& args)
{
    const auto gate = engine.resources().gate;
    const auto texts = prompts(*context.resources, 5000);
    const std::vector<std::string> thousand(texts.begin(), texts.begin() + 1000);
    const auto samples = drawn(thousand);
    const int runs = std::max(args.runs, 1);
    context.out << "routing: training on 5 models x 1,000 tasks x 2 seeds (10,000 answers), "
                   "cross-validation included; median of "
                << runs << " runs\n";
    std::optional<RouterTraining::Result> trained;
    for (const auto method : {RouterModel::Method::Logistic, RouterModel::Method::Knn}) {
        RouterTraining::Options options;
        options.method = method;
        std::string error;
        const double seconds = medianSeconds(runs, [&] {
            trained = RouterTraining::fromSamples(samples, nullptr, options, gate, error);
        });
        if (!trained) {
            context.err << "bench routing: " << error << '\n';
            return kExitFailed;
        }
        context.out << "  " << toString(method) << ": " << fixed(seconds, 3) << " s (target <= 2 s)\n";
        if (method == RouterModel::Method::Logistic) {
            std::string failed;
            auto predictor = RouterPredictor::make(trained->model, gate, failed);
            std::string prompt;
            while (prompt.size() < 1000)
                prompt += texts[prompt.size() % texts.size()] + " ";
            prompt.resize(1000);
            const int calls = 2000;
            std::vector<double> per;
            for (int r = 0; r < 15; ++r) {
                const auto start = Clock::now();
                double sink = 0;
                for (int i = 0; i < calls; ++i)
                    sink += predictor->predict(prompt)[0];
                per.push_back(secondsSince(start) / calls * 1e6);
                if (sink < 0)
                    context.out << "";
            }
            context.out << "  routing one 1,000-character prompt, logistic over 5 models: median "
                        << fixed(Quantile::median(per), 1) << " us (target <= 50 us)\n";
        }
    }

    // knn over 5,000 training prompts (the index only: no cross-validation needed to time a query).
    RouterModel knn;
    knn.method = RouterModel::Method::Knn;
    knn.models = {"m0", "m1", "m2", "m3", "m4"};
    knn.baseRates.assign(5, 0.5);
    knn.k = 20;
    knn.buckets = static_cast<uint32_t>(gate->buckets());
    knn.domains = gate->domains();
    const PromptFeatures features(*gate);
    for (size_t p = 0; p < texts.size(); ++p) {
        knn.prompts.push_back(NearestPrompts::normalised(features.vector(texts[p])));
        std::vector<double> outcomes;
        for (int m = 0; m < 5; ++m)
            outcomes.push_back(DeterministicRandom::unit(DeterministicRandom::key({std::to_string(p)}, 9), uint64_t(m)));
        knn.outcomes.push_back(std::move(outcomes));
    }
    std::string failed;
    auto predictor = RouterPredictor::make(std::move(knn), gate, failed);
    std::vector<double> per;
    for (int r = 0; r < 15; ++r) {
        const auto& query = texts[size_t(r) * 37 % texts.size()];
        std::string prompt = query;
        while (prompt.size() < 1000)
            prompt += " " + texts[(prompt.size() + size_t(r)) % texts.size()];
        prompt.resize(1000);
        const int calls = 20;
        const auto start = Clock::now();
        double sink = 0;
        for (int i = 0; i < calls; ++i)
            sink += predictor->predict(prompt)[0];
        per.push_back(secondsSince(start) / calls * 1e3);
        if (sink < 0)
            context.out << "";
    }
    context.out << "  routing one 1,000-character prompt, knn over 5,000 prompts x 5 models: median "
                << fixed(Quantile::median(per), 3) << " ms (target <= 2 ms)\n\n";
    return kExitOk;
}

} // namespace conclave::cli
