#include "conclave/analysis/ExperimentStats.h"

#include <boost/math/distributions/students_t.hpp>

#include "conclave/analysis/Quantile.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <set>
#include <utility>

namespace conclave {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kEpsilon = 1e-12; // below this two task accuracies are the same

using Trials = std::vector<const TrialRecord*>;

bool scored(const TrialRecord& t)
{
    return ExperimentStats::scored(t);
}

bool right(const TrialRecord& t)
{
    return ExperimentStats::right(t);
}

double clamp(double v, double lo, double hi)
{
    return std::isnan(v) ? v : std::min(hi, std::max(lo, v));
}

Interval clamped(Interval ci, double lo, double hi)
{
    return {clamp(ci.lo, lo, hi), clamp(ci.hi, lo, hi)};
}

Percentiles percentiles(std::vector<double> ms)
{
    std::sort(ms.begin(), ms.end());
    return {Quantile::of(ms, 0.5), Quantile::of(ms, 0.95)};
}

// Each task's accuracy over its scored trials (its seeds), in task-id order;
// tasks without a scored trial are absent.
std::map<std::string, double> perTaskAccuracy(const Trials& trials)
{
    std::map<std::string, std::pair<int64_t, int64_t>> counts; // correct, scored
    for (const auto* t : trials) {
        if (!scored(*t))
            continue;
        auto& [c, n] = counts[t->task];
        c += right(*t) ? 1 : 0;
        ++n;
    }
    std::map<std::string, double> accuracy;
    for (const auto& [task, cn] : counts)
        accuracy[task] = double(cn.first) / double(cn.second);
    return accuracy;
}

AccuracyFigures accuracyOf(const Trials& trials, bool clustered)
{
    AccuracyFigures f;
    for (const auto* t : trials) {
        if (!scored(*t))
            continue;
        ++f.trials;
        f.correct += right(*t) ? 1 : 0;
    }
    if (!clustered) {
        f.accuracy = f.trials > 0 ? double(f.correct) / double(f.trials) : 0;
        f.ci = ExperimentStats::wilson(f.correct, f.trials);
        return f;
    }
    std::vector<double> tasks;
    for (const auto& [task, a] : perTaskAccuracy(trials))
        tasks.push_back(a);
    const auto [mean, ci] = ExperimentStats::meanWithCi(tasks);
    f.accuracy = mean;
    f.ci = clamped(ci, 0, 1);
    // Every task at the same accuracy (all right, say) has no spread to measure: the clustered
    // interval would have no width. The tasks are then counted as the trials of a Wilson interval
    // (one task alone still has none: a single task says nothing of the others).
    const bool spread = std::any_of(tasks.begin(), tasks.end(), [&](double a) { return a != tasks.front(); });
    if (tasks.size() >= 2 && !spread)
        f.ci = ExperimentStats::wilsonAt(mean, int64_t(tasks.size()));
    return f;
}

std::vector<AgentFigures> agentsOf(const Trials& trials, double totalCostUsd)
{
    struct Sums {
        int64_t critical = 0;
        double costUsd = 0;
        std::vector<double> wallMs;
    };
    std::vector<std::string> order;
    std::map<std::string, Sums> sums;
    for (const auto* t : trials) {
        for (const auto& a : t->agents) {
            auto [it, added] = sums.try_emplace(a.node);
            if (added)
                order.push_back(a.node);
            it->second.critical += a.onCriticalPath ? 1 : 0;
            it->second.costUsd += a.costUsd;
            if (a.ran)
                it->second.wallMs.push_back(double(a.wallUs) / 1000.0);
        }
    }
    std::vector<AgentFigures> agents;
    for (const auto& node : order) {
        const auto& s = sums[node];
        agents.push_back({node, double(s.critical) / double(trials.size()),
                          totalCostUsd > 0 ? s.costUsd / totalCostUsd : 0, percentiles(s.wallMs)});
    }
    return agents;
}

DesignSummary describe(const std::string& name, const Trials& trials, bool clustered)
{
    DesignSummary d;
    d.name = name;
    d.overall = accuracyOf(trials, clustered);
    std::map<std::string, Trials> domains;
    for (const auto* t : trials)
        domains[t->domain].push_back(t);
    for (const auto& [domain, ofDomain] : domains)
        d.byDomain[domain] = accuracyOf(ofDomain, clustered);

    std::vector<double> wall;
    std::vector<double> criticalPath;
    double tokens = 0;
    double calls = 0;
    for (const auto* t : trials) {
        d.failed += t->failed() ? 1 : 0;
        d.partial += t->status == RunStatus::Partial ? 1 : 0;
        wall.push_back(double(t->wallUs) / 1000.0);
        criticalPath.push_back(double(t->criticalPathUs) / 1000.0);
        d.totalCostUsd += t->costUsd;
        d.judgeCostUsd += t->judgeCostUsd;
        tokens += double(t->tokens);
        calls += double(t->calls);
    }
    d.wallMs = percentiles(std::move(wall));
    d.criticalPathMs = percentiles(std::move(criticalPath));
    if (!trials.empty()) {
        const auto n = double(trials.size());
        d.failureRate = double(d.failed) / n;
        d.partialRate = double(d.partial) / n;
        d.meanCostUsd = d.totalCostUsd / n;
        d.meanTokens = tokens / n;
        d.meanCalls = calls / n;
    }
    d.agents = agentsOf(trials, d.totalCostUsd);
    return d;
}

// Whether each (task, seed) the design ran and scored was right.
std::map<std::pair<std::string, uint64_t>, bool> outcomes(const Trials& trials)
{
    std::map<std::pair<std::string, uint64_t>, bool> byPair;
    for (const auto* t : trials) {
        if (scored(*t))
            byPair.try_emplace({t->task, t->seed}, right(*t));
    }
    return byPair;
}

PairedFigures paired(const DesignSummary& design, const Trials& trials, const DesignSummary& base,
                     const Trials& baseTrials)
{
    PairedFigures p;
    const auto a = perTaskAccuracy(trials);
    const auto b = perTaskAccuracy(baseTrials);
    std::vector<double> d;
    for (const auto& [task, accuracy] : a) {
        const auto it = b.find(task);
        if (it == b.end())
            continue;
        d.push_back(accuracy - it->second);
        if (accuracy < it->second - kEpsilon)
            p.regressedTasks.push_back(task);
    }
    p.regressions = int64_t(p.regressedTasks.size());
    const auto [delta, ci] = ExperimentStats::meanWithCi(d);
    p.accuracyDelta = delta;
    p.accuracyDeltaCi = clamped(ci, -1, 1);

    const auto baseOutcomes = outcomes(baseTrials);
    for (const auto& [key, isRight] : outcomes(trials)) {
        const auto it = baseOutcomes.find(key);
        if (it == baseOutcomes.end())
            continue;
        if (isRight && !it->second)
            ++p.wins;
        else if (!isRight && it->second)
            ++p.losses;
        else
            ++p.ties;
    }
    if (base.meanCostUsd != 0)
        p.costRatio = design.meanCostUsd / base.meanCostUsd;
    if (base.wallMs.p50 != 0)
        p.wallP50Ratio = design.wallMs.p50 / base.wallMs.p50;
    return p;
}

} // namespace

Interval ExperimentStats::wilson(int64_t correct, int64_t trials, double z)
{
    return trials <= 0 ? Interval{kNaN, kNaN} : wilsonAt(double(correct) / double(trials), trials, z);
}

Interval ExperimentStats::wilsonAt(double proportion, int64_t trials, double z)
{
    if (trials <= 0)
        return {kNaN, kNaN};
    const double n = double(trials);
    const double p = proportion;
    const double z2 = z * z;
    const double denominator = 1 + z2 / n;
    const double centre = (p + z2 / (2 * n)) / denominator;
    const double half = z * std::sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denominator;
    return clamped({centre - half, centre + half}, 0, 1);
}

double ExperimentStats::t975(int64_t df)
{
    if (df <= 0)
        return kNaN;
    // Boost.Math's Student t quantile, exact to double precision.
    return boost::math::quantile(boost::math::students_t_distribution<double>(double(df)), 0.975);
}

std::pair<double, Interval> ExperimentStats::meanWithCi(const std::vector<double>& values)
{
    if (values.empty())
        return {0, {kNaN, kNaN}};
    const bool allEqual = std::all_of(values.begin(), values.end(), [&](double v) { return v == values.front(); });
    double sum = 0;
    for (double v : values)
        sum += v;
    // Equal values give their own value and a CI of no width, not rounding noise.
    const double mean = allEqual ? values.front() : sum / double(values.size());
    if (values.size() < 2)
        return {mean, {kNaN, kNaN}};
    if (allEqual)
        return {mean, {mean, mean}};
    double squares = 0;
    for (double v : values)
        squares += (v - mean) * (v - mean);
    const auto n = int64_t(values.size());
    const double sd = std::sqrt(squares / double(n - 1));
    const double half = t975(n - 1) * sd / std::sqrt(double(n));
    return {mean, {mean - half, mean + half}};
}

std::vector<bool> ExperimentStats::paretoFrontier(const std::vector<double>& accuracy, const std::vector<double>& cost)
{
    // Figures that differ only by rounding are equal: 41 of 75 is the same
    // accuracy whatever order the per-task means were summed in.
    const auto same = [](double a, double b) { return std::fabs(a - b) <= 1e-9 * std::max(1.0, std::fabs(b)); };
    const size_t n = std::min(accuracy.size(), cost.size());
    std::vector<bool> onFrontier(accuracy.size(), false);
    for (size_t i = 0; i < n; ++i) {
        bool dominated = false;
        for (size_t j = 0; j < n && !dominated; ++j) {
            const bool sameAccuracy = same(accuracy[j], accuracy[i]);
            const bool sameCost = same(cost[j], cost[i]);
            dominated = j != i && (sameAccuracy || accuracy[j] > accuracy[i]) && (sameCost || cost[j] < cost[i]) &&
                        !(sameAccuracy && sameCost);
        }
        onFrontier[i] = !dominated;
    }
    return onFrontier;
}

ExperimentSummary ExperimentStats::summarize(const std::vector<std::string>& designs, int baseline,
                                             const std::vector<TrialRecord>& trials)
{
    ExperimentSummary summary;
    summary.baseline = baseline;
    const auto count = int(designs.size());
    std::vector<Trials> ofDesign(designs.size());
    std::set<uint64_t> seeds;
    for (const auto& t : trials) {
        if (t.design < 0 || t.design >= count)
            continue;
        ofDesign[size_t(t.design)].push_back(&t);
        seeds.insert(t.seed);
    }
    summary.seeds = int(seeds.size());
    const bool clustered = summary.seeds > 1;
    for (size_t d = 0; d < designs.size(); ++d)
        summary.designs.push_back(describe(designs[d], ofDesign[d], clustered));

    // Only designs that ran anything are placed on the frontiers.
    std::vector<size_t> ran;
    std::vector<double> accuracy;
    std::vector<double> cost;
    std::vector<double> latency;
    for (size_t d = 0; d < designs.size(); ++d) {
        if (ofDesign[d].empty())
            continue;
        ran.push_back(d);
        accuracy.push_back(summary.designs[d].overall.accuracy);
        cost.push_back(summary.designs[d].meanCostUsd);
        latency.push_back(summary.designs[d].wallMs.p95);
    }
    const auto byCost = paretoFrontier(accuracy, cost);
    const auto byLatency = paretoFrontier(accuracy, latency);
    for (size_t i = 0; i < ran.size(); ++i) {
        summary.designs[ran[i]].paretoCost = byCost[i];
        summary.designs[ran[i]].paretoLatency = byLatency[i];
    }

    if (baseline >= 0 && baseline < count) {
        const auto b = size_t(baseline);
        for (size_t d = 0; d < designs.size(); ++d) {
            if (d != b)
                summary.designs[d].vsBaseline =
                    paired(summary.designs[d], ofDesign[d], summary.designs[b], ofDesign[b]);
        }
    }
    return summary;
}

} // namespace conclave
