#include "conclave/experiment/ModelCalibration.h"

#include "conclave/analysis/Quantile.h"
#include "conclave/experiment/BehaviourFit.h"
#include "conclave/experiment/ConformityFit.h"
#include "conclave/experiment/JointFit.h"
#include "conclave/experiment/NormalOgive.h"
#include "conclave/experiment/PairwiseAgreement.h"
#include "conclave/experiment/RepeatAgreement.h"
#include "conclave/local/ItemBank.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <tuple>

namespace conclave {

namespace {

using Call = CalibrationSamples::Call;
using Answer = CalibrationSamples::Answer;

double rounded(double value, int decimals)
{
    const double scale = std::pow(10.0, decimals);
    return std::round(value * scale) / scale;
}

double significant(double value, int digits)
{
    if (value == 0 || !std::isfinite(value))
        return value;
    char text[40];
    std::snprintf(text, sizeof text, "%.*g", digits, value);
    return std::strtod(text, nullptr);
}

Distribution roundedDistribution(const Distribution& d)
{
    return Distribution{rounded(d.median, 1), rounded(d.p95, 1)};
}

// "only 1 scored answer", "only 12 scored answers".
std::string only(int64_t count, const std::string& what)
{
    return "only " + std::to_string(count) + " " + what + (count == 1 ? "" : "s");
}

struct Tally {
    int64_t correct = 0;
    int64_t scored = 0;
    double weighedCorrect = 0; // by each answer's weight (copies count as one)
    double weighed = 0;
    std::vector<double> difficulties; // the fitted z of each scored answer's task
    double skill = 0;                 // Φ(a) of the joint fit
};

// What the joint fit says of one model.
struct Joint {
    std::map<std::string, Tally> domains;
    double weight = 0;
    bool weightFitted = false;

    // The fit's curve for an answer in `domain`: P = Φ(α − β·z) (JointFit).
    JointFit::Line line(const std::string& domain, bool correct, double answerWeight) const
    {
        const double scale = 1 / std::sqrt(1 - weight);
        return {NormalOgive::quantile(domains.at(domain).skill) * scale, std::sqrt(weight) * scale, correct,
                answerWeight};
    }
};

// How much each answer counts (docs/calibration.md, "Copies count once"):
// answers of one model to one task under one seed are copies of one call (the
// simulator's common random numbers, an endpoint asked the same twice), n of
// them 1/n each; a model that never answers one task differently under
// another seed (a deterministic endpoint: at least 10 tasks answered under
// several seeds, all identically) has its answers to a task 1/n each.
std::vector<double> answerWeights(const std::vector<Answer>& answers)
{
    std::map<std::pair<std::string, std::string>, std::map<uint64_t, std::set<std::string>>> byTask;
    for (const auto& a : answers)
        byTask[{a.model, a.task}][a.seed].insert(a.answer);
    std::map<std::string, std::pair<int, int>> repeats; // by model: tasks under several seeds, of them answered alike
    for (const auto& [key, seeds] : byTask) {
        if (seeds.size() < 2)
            continue;
        std::set<std::string> all;
        bool alike = true;
        for (const auto& [seed, texts] : seeds) {
            alike = alike && texts.size() == 1;
            all.insert(texts.begin(), texts.end());
        }
        auto& r = repeats[key.first];
        ++r.first;
        r.second += alike && all.size() == 1 ? 1 : 0;
    }
    const auto deterministic = [&](const std::string& model) {
        const auto r = repeats.find(model);
        return r != repeats.end() && r->second.first >= 10 && r->second.second == r->second.first;
    };
    std::map<std::tuple<std::string, std::string, uint64_t>, int> copies;
    for (const auto& a : answers)
        ++copies[{a.model, a.task, deterministic(a.model) ? 0 : a.seed}];
    std::vector<double> out;
    out.reserve(answers.size());
    for (const auto& a : answers)
        out.push_back(1.0 / double(copies.at({a.model, a.task, deterministic(a.model) ? 0 : a.seed})));
    return out;
}

// JointFit over every answer: each model's skill per domain and weight, each task's z.
std::map<std::string, Joint> fitJoint(const std::vector<Answer>& answers, const std::vector<double>& weights,
                                      std::map<std::string, double>& difficulties)
{
    std::map<std::string, size_t> models, domains, tasks;
    for (const auto& a : answers) {
        models.emplace(a.model, 0);
        domains.emplace(a.domain, 0);
        tasks.emplace(a.task, 0);
    }
    const auto number = [](std::map<std::string, size_t>& names) {
        size_t i = 0;
        for (auto& entry : names)
            entry.second = i++;
    };
    number(models);
    number(domains);
    number(tasks);
    JointFit::Input input{models.size(), domains.size(), tasks.size(), {}};
    for (size_t i = 0; i < answers.size(); ++i) {
        const auto& a = answers[i];
        input.responses.push_back({models.at(a.model), domains.at(a.domain), tasks.at(a.task), a.correct, weights[i]});
    }
    const auto fit = JointFit::fit(input);
    for (const auto& [task, t] : tasks)
        difficulties[task] = fit.difficulty[t];
    std::map<std::string, Joint> out;
    for (size_t i = 0; i < answers.size(); ++i) {
        const auto& a = answers[i];
        auto& joint = out[a.model];
        auto& tally = joint.domains[a.domain];
        ++tally.scored;
        tally.correct += a.correct ? 1 : 0;
        tally.weighed += weights[i];
        tally.weighedCorrect += a.correct ? weights[i] : 0;
        tally.difficulties.push_back(fit.difficulty[tasks.at(a.task)]);
    }
    for (auto& [model, joint] : out) {
        const size_t m = models.at(model);
        joint.weight = fit.weight[m];
        joint.weightFitted = fit.weightFitted[m];
        for (auto& [domain, tally] : joint.domains)
            tally.skill = NormalOgive::cdf(fit.ability[m][domains.at(domain)]);
    }
    return out;
}

// One model's profile from its calls and answers.
// What one model did, beyond its calls: its scored answers and its synthesize calls.
struct Behaviour {
    std::vector<const Answer*> answers;
    std::vector<const CalibrationSamples::Synthesis*> syntheses;
};

double roundedShare(double value)
{
    return rounded(value, 4);
}

ModelProfile fitModel(const std::string& model, const std::vector<const Call*>& calls, const Joint& joint,
                      const std::optional<PairwiseAgreement::Model>& agreement,
                      const std::optional<RepeatAgreement::Model>& repeats, const Behaviour& behaviour,
                      const ModelsFile::Profiles& catalog, const ModelCalibration::Options& options,
                      std::vector<std::string>& warnings)
{
    const int64_t minCount = options.minCount;
    const auto& domains = joint.domains;
    ModelProfile p;
    std::vector<Call> ok;
    std::vector<Quantile::Observed> ttft;
    std::vector<double> speed;
    std::vector<Quantile::Observed> length;
    std::vector<const Call*> timedOut;
    int64_t failed = 0;
    // Times are read unloaded: divided by the load factor of the call's inflight count.
    const auto load = BehaviourFit::load(calls, minCount);
    const double slope = load ? rounded(load->slope, 4) : 0.0;
    // Latency and length are read from first attempts only: a retry is not a
    // fresh sample of them when the endpoint answers one request the same way
    // every time (a timed-out call then times out again), and a first attempt
    // is one whatever the endpoint does (docs/calibration.md).
    int64_t firstAttempts = 0;
    for (const Call* c : calls) {
        if (!c->timedOut && !c->ok)
            ++failed;
        if (c->attempt > 1)
            continue;
        ++firstAttempts;
        if (c->timedOut) {
            timedOut.push_back(c);
            continue;
        }
        if (!c->ok)
            continue;
        ok.push_back(*c);
        length.push_back({double(c->tokensOut), false});
        if (c->ttftMs < 0)
            continue;
        const double factor = BehaviourFit::factor(slope, c->inflight);
        ttft.push_back({c->ttftMs / factor, false});
        const double generatingMs = (c->durationMs - c->ttftMs) / factor;
        if (c->tokensOut > 0 && generatingMs > 0)
            speed.push_back(double(c->tokensOut) / (generatingMs / 1000.0));
    }
    // A call its timeout cut off was going to take longer: its first token
    // (when none came) and its length are censored, not missing. Leaving such
    // calls out made a slow model's latency look fast (docs/calibration.md).
    const double typicalSpeed = speed.empty() ? 0.0 : Quantile::median(speed);
    for (const Call* c : timedOut) {
        const double factor = BehaviourFit::factor(slope, c->inflight);
        if (c->ttftMs < 0) {
            ttft.push_back({c->durationMs / factor, true});
        } else {
            ttft.push_back({c->ttftMs / factor, false});
            if (typicalSpeed > 0)
                length.push_back({typicalSpeed * (c->durationMs - c->ttftMs) / factor / 1000.0, true});
        }
    }
    if (int64_t(ok.size()) < minCount)
        warnings.push_back(model + ": " + only(int64_t(ok.size()), "successful call") + " (fewer than " +
                           std::to_string(minCount) + "); its latency, speed and length are uncertain");
    if (!ttft.empty())
        p.ttftMs = roundedDistribution(ModelCalibration::distribution(ttft));
    if (!speed.empty())
        p.tokensPerS = roundedDistribution(ModelCalibration::distribution(speed, false));
    if (!length.empty())
        p.outputTokens = roundedDistribution(ModelCalibration::distribution(length));
    if (!timedOut.empty() && int64_t(timedOut.size()) * 20 >= firstAttempts)
        warnings.push_back(model + ": " + std::to_string(timedOut.size()) + " of " + std::to_string(firstAttempts) +
                           " calls timed out; its latency and length beyond the timeout are extrapolated");
    if (!ok.empty())
        p.pricePerMtok = ModelCalibration::price(ok);
    // Does a retry after a timeout time out again more often than a first
    // attempt does? f of those retries timed out, q of first attempts:
    // retry_repeat = (f − q) / (1 − q), clamped to [0, 1].
    int64_t retries = 0, retriesTimedOut = 0;
    for (const Call* c : calls) {
        if (c->afterTimeout) {
            ++retries;
            retriesTimedOut += c->timedOut ? 1 : 0;
        }
    }
    if (retries >= ModelCalibration::kMinRetries && firstAttempts > int64_t(timedOut.size())) {
        const double f = double(retriesTimedOut) / double(retries);
        const double q = double(timedOut.size()) / double(firstAttempts);
        p.retryRepeat = rounded(std::clamp((f - q) / (1 - q), 0.0, 1.0), 4);
        if (retries < minCount)
            warnings.push_back(model + ": only " + std::to_string(retries) + " retries after a timeout (fewer than " +
                               std::to_string(minCount) + "); its retry repeat is uncertain");
    }
    // Calls that fit say nothing about the window, and too small a window
    // refuses what the real model would answer: none unless it is known.
    const auto known = catalog.find(model);
    if (const auto given = options.contextTokens.find(model); given != options.contextTokens.end())
        p.contextTokens = given->second;
    else if (known != catalog.end() && known->second.contextTokens)
        p.contextTokens = known->second.contextTokens;
    else
        warnings.push_back(model + ": context window not measured; no limit set (give --context " + model + "=TOKENS)");
    // ok or failed: a timeout is no failure of the model
    const auto finished = std::count_if(calls.begin(), calls.end(), [](const Call* c) { return !c->timedOut; });
    p.failureRate = finished > 0 ? rounded(double(failed) / double(finished), 4) : 0.0;

    if (domains.empty()) {
        warnings.push_back(model + ": no scored answers; its skills are not fitted");
    } else {
        p.skills.emplace();
        p.skillsCi.emplace();
        p.trials.emplace();
        for (const auto& [domain, t] : domains) {
            // The simulator's skill is the accuracy on a task of typical
            // difficulty, not on these tasks: invert its curve over them.
            const auto& difficulties = t.difficulties; // a lambda may not capture a structured binding (clang 14)
            const double weight = joint.weight;
            const auto skill = [&difficulties, weight](double accuracy) {
                return rounded(ItemBank::skillFor(accuracy, difficulties, weight), 4);
            };
            const double fitted = rounded(t.skill, 4);
            (*p.skills)[domain] = fitted;
            // The interval counts copies once: n is the answers' total weight.
            const auto n = std::max<int64_t>(1, std::llround(t.weighed));
            const auto ci = ExperimentStats::wilsonAt(t.weighed > 0 ? t.weighedCorrect / t.weighed : 0.0, n);
            (*p.skillsCi)[domain] = {std::min(fitted, skill(ci.lo)), std::max(fitted, skill(ci.hi))};
            (*p.trials)[domain] = t.scored;
            if (t.scored < minCount)
                warnings.push_back(model + ": " + only(t.scored, "scored answer") + " in " + domain + " (fewer than " +
                                   std::to_string(minCount) + "); its skill there is uncertain");
        }
    }
    if (joint.weightFitted)
        p.difficultyWeight = roundedShare(joint.weight);
    if (agreement && agreement->pairs > 0) {
        p.errorAgreement = rounded(agreement->fitted, 4);
        if (agreement->pairs < minCount)
            warnings.push_back(model + ": " + only(agreement->pairs, "pair") +
                               " of wrong answers with another model on tasks with choices (fewer than " +
                               std::to_string(minCount) + "); its error_agreement is uncertain");
    }
    if (repeats && repeats->tasks >= RepeatAgreement::kMinTasks) {
        p.repeatAgreement = rounded(repeats->fitted, 4);
        if (repeats->tasks < minCount)
            warnings.push_back(model + ": " + only(repeats->tasks, "task") +
                               " answered under several seeds (fewer than " + std::to_string(minCount) +
                               "); its repeat_agreement is uncertain");
    }
    if (const auto stated = BehaviourFit::confidence(behaviour.answers)) {
        const auto roundedAll = [](std::vector<double> values) {
            for (double& v : values)
                v = roundedShare(v);
            return values;
        };
        p.confidence = ConfidenceProfile{
            {roundedShare(stated->rightMean), roundedShare(stated->rightSd), roundedAll(stated->rightQuantiles)},
            {roundedShare(stated->wrongMean), roundedShare(stated->wrongSd), roundedAll(stated->wrongQuantiles)}};
    }
    if (const auto synthesis = BehaviourFit::synthesis(behaviour.syntheses)) {
        SynthesisProfile table;
        for (const double pk : synthesis->pRightGivenRight)
            table.pRightGivenRight.push_back(roundedShare(pk));
        table.selfAnswer = roundedShare(synthesis->selfAnswer);
        p.synthesis = std::move(table);
        if (int64_t(behaviour.syntheses.size()) < minCount)
            warnings.push_back(model + ": " + only(int64_t(behaviour.syntheses.size()), "synthesize call") +
                               " (fewer than " + std::to_string(minCount) + "); its synthesis is uncertain");
    }
    if (load)
        p.loadSlope = slope;
    // Which fields came from data, in the profile's order.
    std::vector<std::string> fitted;
    const auto note = [&fitted](bool set, const char* field) {
        if (set)
            fitted.emplace_back(field);
    };
    note(bool(p.skills), "skills");
    note(bool(p.ttftMs), "ttft_ms");
    note(bool(p.tokensPerS), "tokens_per_s");
    note(bool(p.outputTokens), "output_tokens");
    note(bool(p.pricePerMtok), "price_per_mtok");
    note(bool(p.failureRate), "failure_rate");
    note(bool(p.errorAgreement), "error_agreement");
    note(bool(p.difficultyWeight), "difficulty_weight");
    note(bool(p.confidence), "confidence");
    note(bool(p.synthesis), "synthesis");
    note(bool(p.loadSlope), "load_slope");
    note(bool(p.retryRepeat), "retry_repeat");
    note(bool(p.repeatAgreement), "repeat_agreement");
    p.fitted = std::move(fitted);
    return p;
}

// Each fitted model's conformity in meetings, read against every model's curve.
void fitConformity(const CalibrationSamples& samples, const std::vector<double>& weights,
                   const std::map<std::string, Joint>& joint, int64_t minCount, ModelCalibration::Result& result)
{
    std::map<std::string, ConformityFit::Curve> curves;
    for (const auto& [model, j] : joint) {
        auto& curve = curves[model];
        curve.weight = j.weight;
        for (const auto& [domain, tally] : j.domains)
            curve.skills[domain] = tally.skill;
    }
    const auto fitted = ConformityFit::fit(samples, weights, curves);
    for (auto& [model, profile] : result.models) {
        const auto c = fitted.find(model);
        if (c == fitted.end())
            continue;
        profile.conformity = roundedShare(c->second.share);
        if (!profile.fitted)
            profile.fitted.emplace();
        // In the profile's order: only repeat_agreement comes after it.
        auto& fields = *profile.fitted;
        fields.insert(std::find(fields.begin(), fields.end(), "repeat_agreement"), "conformity");
        if (c->second.turns < minCount)
            result.warnings.push_back(model + ": " + only(c->second.turns, "meeting turn") +
                                      " shown earlier turns (fewer than " + std::to_string(minCount) +
                                      "); its conformity is uncertain");
    }
}

} // namespace

Distribution ModelCalibration::distribution(const std::vector<Quantile::Observed>& values)
{
    const bool censored =
        std::any_of(values.begin(), values.end(), [](const Quantile::Observed& o) { return o.censored; });
    if (censored) {
        Distribution d{Quantile::ofCensored(values, 0.5), Quantile::ofCensored(values, 0.95)};
        // Censoring (calls cut off by a timeout) can leave the estimate short
        // of 95 %: its tail is then the lognormal the simulator draws from,
        // through the median and the highest point the estimate reaches,
        // (t, q): σ = ln(t / median) / Φ⁻¹(q), p95 = median · e^{1.645σ}.
        const auto steps = Quantile::kaplanMeier(values);
        if (!steps.empty() && steps.back().share < 0.95 && steps.back().share > 0.5 && d.median > 0 &&
            steps.back().value > d.median) {
            const double sigma = std::log(steps.back().value / d.median) / ItemBank::normalQuantile(steps.back().share);
            d.p95 = d.median * std::exp(ItemBank::normalQuantile(0.95) * sigma);
        }
        return d;
    }
    std::vector<double> exact;
    exact.reserve(values.size());
    for (const auto& o : values)
        exact.push_back(o.value);
    return distribution(std::move(exact));
}

Distribution ModelCalibration::distribution(std::vector<double> values, bool higherIsSlower)
{
    std::sort(values.begin(), values.end());
    return Distribution{Quantile::of(values, 0.5), Quantile::of(values, higherIsSlower ? 0.95 : 0.05)};
}

Price ModelCalibration::price(const std::vector<Call>& okCalls)
{
    double ii = 0, io = 0, oo = 0, ci = 0, co = 0, cc = 0, ss = 0, cs = 0;
    for (const auto& c : okCalls) {
        const double i = double(c.tokensIn);
        const double o = double(c.tokensOut);
        ii += i * i;
        io += i * o;
        oo += o * o;
        ci += c.costUsd * i;
        co += c.costUsd * o;
        cc += c.costUsd * c.costUsd;
        ss += (i + o) * (i + o);
        cs += c.costUsd * (i + o);
    }
    if (cc == 0 || ss == 0)
        return Price{0, 0};
    const auto perMillion = [](double perToken) { return significant(std::max(0.0, perToken) * 1e6, 6); };
    const double det = ii * oo - io * io;
    if (det <= 1e-9 * ii * oo) {
        const double both = perMillion(cs / ss);
        return Price{both, both};
    }
    double a = (ci * oo - co * io) / det;
    double b = (co * ii - ci * io) / det;
    if (a < 0) {
        a = 0;
        b = oo > 0 ? co / oo : 0;
    } else if (b < 0) {
        b = 0;
        a = ii > 0 ? ci / ii : 0;
    }
    return Price{perMillion(a), perMillion(b)};
}

std::vector<Task> ModelCalibration::measuredTasks(const CalibrationSamples& samples, const Result& fitted)
{
    std::map<std::string, int> sets; // task id → how many pooled sets answered it
    for (const auto& [key, measured] : samples.tasks)
        ++sets[measured.task.id];
    std::vector<Task> out;
    for (const auto& [key, measured] : samples.tasks) {
        Task task = measured.task;
        if (sets.at(task.id) > 1)
            task.id = std::filesystem::path(measured.set).stem().string() + "/" + task.id;
        if (const auto z = fitted.difficulties.find(key); z != fitted.difficulties.end())
            task.difficulty = rounded(z->second, 4);
        out.push_back(std::move(task));
    }
    return out;
}

bool ModelCalibration::addContext(std::string_view text, Options& options, std::string& error)
{
    const auto equals = text.rfind('=');
    if (equals == std::string_view::npos || equals == 0) {
        error = "expected MODEL=TOKENS (a model's name and its context window in tokens), got \"" + std::string(text) +
                "\"";
        return false;
    }
    const std::string model(text.substr(0, equals));
    const auto digits = text.substr(equals + 1);
    int64_t tokens = 0;
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), tokens);
    if (digits.empty() || ec != std::errc() || end != digits.data() + digits.size() || tokens < 1) {
        error = "the context window of " + model + " must be a positive integer of tokens, got \"" +
                std::string(digits) + "\"";
        return false;
    }
    const auto [it, fresh] = options.contextTokens.emplace(model, tokens);
    if (!fresh && it->second != tokens) {
        error = model + " was already given a context window of " + std::to_string(it->second);
        return false;
    }
    return true;
}

ModelCalibration::Result ModelCalibration::fit(const CalibrationSamples& samples, const ModelsFile::Profiles& catalog,
                                               const Options& options)
{
    Result result;
    std::map<std::string, std::vector<const Call*>> calls;
    for (const auto& c : samples.calls)
        calls[c.model].push_back(&c);
    const auto notCalled = [&](const std::string& option) {
        std::string seen;
        for (const auto& [model, list] : calls)
            seen += (seen.empty() ? "" : ", ") + model;
        const std::string read = samples.experiments.empty() ? "the served runs"
                                 : samples.servedRuns > 0    ? "the experiments and served runs"
                                                             : "the experiments";
        result.error = option + ": no call of this model in " + read + " (" +
                       (seen.empty() ? std::string("they called none") : "they called " + seen) + ")";
        return result;
    };
    for (const auto& wanted : options.models) {
        if (!calls.contains(wanted))
            return notCalled("--model " + wanted);
    }
    for (const auto& [model, tokens] : options.contextTokens) {
        if (!calls.contains(model))
            return notCalled("--context " + model + "=" + std::to_string(tokens));
    }
    const std::set<std::string> wanted(options.models.begin(), options.models.end());
    // Every model's answers inform the tasks' difficulties and the others' fits, wanted or not.
    const auto weights = answerWeights(samples.answers);
    const auto joint = fitJoint(samples.answers, weights, result.difficulties);
    const auto agreements = PairwiseAgreement::fit(samples.answers).models;
    const auto repeats = RepeatAgreement::fit(samples.answers, weights, [&joint](const Answer& a, double weight) {
        return joint.at(a.model).line(a.domain, a.correct, weight);
    });
    std::map<std::string, Behaviour> behaviours;
    std::map<std::string, std::vector<int64_t>> answersFrom; // per model, per experiment
    for (const auto& a : samples.answers) {
        behaviours[a.model].answers.push_back(&a);
        auto& counts = answersFrom[a.model];
        counts.resize(samples.experiments.size(), 0);
        if (a.experiment < counts.size())
            ++counts[a.experiment];
    }
    for (const auto& s : samples.syntheses)
        behaviours[s.model].syntheses.push_back(&s);
    for (const auto& [model, list] : calls) {
        if (!wanted.empty() && !wanted.contains(model))
            continue;
        const auto j = joint.find(model);
        const auto a = agreements.find(model);
        const auto r = repeats.find(model);
        auto profile = fitModel(model, list, j == joint.end() ? Joint{} : j->second,
                                a == agreements.end() ? std::nullopt : std::optional(a->second),
                                r == repeats.end() ? std::nullopt : std::optional(r->second), behaviours[model],
                                catalog, options, result.warnings);
        std::vector<CalibrationSource> sources;
        const auto counts = answersFrom.find(model);
        for (size_t e = 0; e < samples.experiments.size(); ++e)
            sources.push_back({samples.experiments[e], counts == answersFrom.end() ? 0 : counts->second[e]});
        // Served runs answer no known task: only experiments are sources of answers.
        if (!sources.empty())
            profile.calibratedFrom = std::move(sources);
        result.models.emplace(model, std::move(profile));
    }
    fitConformity(samples, weights, joint, options.minCount, result);
    return result;
}

std::vector<std::string> ModelCalibration::defaultsKept(const ModelProfile& profile)
{
    std::vector<std::string> out;
    for (const char* field : {"skills", "ttft_ms", "tokens_per_s", "output_tokens", "price_per_mtok", "failure_rate",
                              "error_agreement", "difficulty_weight", "confidence", "synthesis", "load_slope",
                              "retry_repeat", "conformity", "repeat_agreement"}) {
        if (!profile.fitted || std::find(profile.fitted->begin(), profile.fitted->end(), field) == profile.fitted->end())
            out.emplace_back(field);
    }
    return out;
}

} // namespace conclave
