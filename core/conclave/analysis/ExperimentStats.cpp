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

// Whether the values differ by more than rounding: 1 − 2/3 and 2/3 − 1/3 are the same difference.
bool spread(const std::vector<double>& values)
{
    return std::any_of(values.begin(), values.end(),
                       [&](double v) { return std::fabs(v - values.front()) > kEpsilon; });
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
    f.trials = int64_t(trials.size());
    for (const auto* t : trials) {
        if (!scored(*t))
            continue;
        ++f.scored;
        f.correct += right(*t) ? 1 : 0;
    }
    std::vector<double> tasks;
    for (const auto& [task, a] : perTaskAccuracy(trials))
        tasks.push_back(a);
    f.tasks = int64_t(tasks.size());
    const auto [mean, ci] = ExperimentStats::meanWithCi(tasks);
    // With one seed each task is one trial: the mean of per-task accuracies is correct ÷ scored,
    // computed as the count so that it is exact.
    f.accuracy = clustered ? mean : f.scored > 0 ? double(f.correct) / double(f.scored) : 0;
    if (!clustered) {
        f.ci = ExperimentStats::wilson(f.correct, f.scored);
        f.ciMethod = f.scored > 0 ? CiMethod::Wilson : CiMethod::None;
        return f;
    }
    f.ci = clamped(ci, 0, 1);
    f.ciMethod = tasks.size() >= 2 ? CiMethod::Clustered : CiMethod::None;
    // Every task at the same accuracy (all right, say) has no spread to measure: the clustered
    // interval would have no width. The tasks are then counted as the trials of a Wilson interval
    // (one task alone still has none: a single task says nothing of the others).
    if (tasks.size() >= 2 && !spread(tasks)) {
        f.ci = ExperimentStats::wilsonAt(mean, int64_t(tasks.size()));
        f.ciMethod = CiMethod::WilsonOverTasks;
    }
    return f;
}

std::vector<AgentFigures> agentsOf(const Trials& trials, double totalCostUsd)
{
    struct Sums {
        int64_t critical = 0;
        double costUsd = 0;
        std::vector<double> attemptMs;
        double busyMs = 0;
        int64_t ran = 0;
    };
    std::vector<std::string> order;
    std::map<std::string, Sums> sums;
    for (const auto* t : trials) {
        for (const auto& a : t->agents) {
            auto [it, added] = sums.try_emplace(a.node);
            if (added)
                order.push_back(a.node);
            auto& s = it->second;
            s.critical += a.onCriticalPath ? 1 : 0;
            s.costUsd += a.costUsd;
            for (const int64_t us : a.attemptsUs)
                s.attemptMs.push_back(double(us) / 1000.0);
            if (a.ran) {
                s.busyMs += double(a.wallUs) / 1000.0;
                ++s.ran;
            }
        }
    }
    std::vector<AgentFigures> agents;
    for (const auto& node : order) {
        auto& s = sums[node];
        AgentFigures f;
        f.node = node;
        f.criticalPathShare = double(s.critical) / double(trials.size());
        f.costShare = totalCostUsd > 0 ? s.costUsd / totalCostUsd : 0;
        f.attempts = int64_t(s.attemptMs.size());
        f.attemptMs = percentiles(std::move(s.attemptMs));
        f.busyMsPerTrial = s.ran > 0 ? s.busyMs / double(s.ran) : 0;
        agents.push_back(std::move(f));
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

// The ratios: cost and p50 wall over the (task, seed) pairs both designs ran.
void pairedRatios(const Trials& trials, const Trials& baseTrials, PairedFigures& p)
{
    std::map<std::pair<std::string, uint64_t>, const TrialRecord*> base;
    for (const auto* t : baseTrials)
        base.try_emplace({t->task, t->seed}, t);
    std::set<std::pair<std::string, uint64_t>> seen;
    double cost = 0;
    double baseCost = 0;
    std::vector<double> wall;
    std::vector<double> baseWall;
    for (const auto* t : trials) {
        const auto it = base.find({t->task, t->seed});
        if (it == base.end() || !seen.insert(it->first).second)
            continue;
        cost += t->costUsd;
        baseCost += it->second->costUsd;
        wall.push_back(double(t->wallUs) / 1000.0);
        baseWall.push_back(double(it->second->wallUs) / 1000.0);
    }
    p.pairs = int64_t(wall.size());
    if (p.pairs == 0)
        return;
    // Means over the same number of pairs: their ratio is the ratio of the sums.
    if (baseCost != 0)
        p.costRatio = cost / baseCost;
    const double baseP50 = Quantile::median(std::move(baseWall));
    if (baseP50 != 0)
        p.wallP50Ratio = Quantile::median(std::move(wall)) / baseP50;
}

PairedFigures paired(const Trials& trials, const Trials& baseTrials)
{
    PairedFigures p;
    const auto a = perTaskAccuracy(trials);
    const auto b = perTaskAccuracy(baseTrials);
    std::vector<double> mine;
    std::vector<double> theirs;
    std::vector<double> d;
    for (const auto& [task, accuracy] : a) {
        const auto it = b.find(task);
        if (it == b.end())
            continue;
        mine.push_back(accuracy);
        theirs.push_back(it->second);
        d.push_back(accuracy - it->second);
        if (accuracy < it->second - kEpsilon)
            p.regressedTasks.push_back(task);
    }
    p.tasks = int64_t(d.size());
    p.regressions = int64_t(p.regressedTasks.size());
    const auto [delta, ci] = ExperimentStats::meanWithCi(d);
    p.accuracyDelta = delta;
    p.accuracyDeltaCi = clamped(ci, -1, 1);
    p.accuracyDeltaCiMethod = d.size() >= 2 ? CiMethod::PairedT : CiMethod::None;
    // Every task moved by the same amount (all up, all down, or none): the t interval would have
    // no width although T tasks say little. Newcombe's interval, from the two Wilson intervals
    // over the T tasks, is the fallback, as Wilson's is for the accuracy.
    if (d.size() >= 2 && !spread(d)) {
        p.accuracyDeltaCi = ExperimentStats::newcombePaired(mine, theirs);
        p.accuracyDeltaCiMethod = CiMethod::Newcombe;
    }

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
    pairedRatios(trials, baseTrials, p);
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

std::string_view toString(CiMethod method)
{
    switch (method) {
    case CiMethod::None:
        return "none";
    case CiMethod::Wilson:
        return "wilson";
    case CiMethod::Clustered:
        return "clustered";
    case CiMethod::WilsonOverTasks:
        return "wilson_over_tasks";
    case CiMethod::PairedT:
        return "paired_t";
    case CiMethod::Newcombe:
        return "newcombe";
    }
    return "none";
}

Interval ExperimentStats::newcombePaired(const std::vector<double>& a, const std::vector<double>& b, double z)
{
    const size_t n = a.size();
    if (n < 2 || b.size() != n)
        return {kNaN, kNaN};
    const double count = double(n);
    double p1 = 0;
    double p2 = 0;
    for (size_t i = 0; i < n; ++i) {
        p1 += a[i];
        p2 += b[i];
    }
    p1 /= count;
    p2 /= count;
    double v1 = 0;
    double v2 = 0;
    double c = 0;
    for (size_t i = 0; i < n; ++i) {
        v1 += (a[i] - p1) * (a[i] - p1);
        v2 += (b[i] - p2) * (b[i] - p2);
        c += (a[i] - p1) * (b[i] - p2);
    }
    v1 /= count;
    v2 /= count;
    c /= count;
    // Newcombe's φ with its correction of T/2 on the 2×2 table, in moments: c − 1/2T when above it.
    const double corrected = c > 1 / (2 * count) ? c - 1 / (2 * count) : c < 0 ? c : 0;
    const double phi = v1 > 0 && v2 > 0 ? corrected / std::sqrt(v1 * v2) : 0;
    const auto w1 = wilsonAt(p1, int64_t(n), z);
    const auto w2 = wilsonAt(p2, int64_t(n), z);
    const double below1 = p1 - w1.lo;
    const double above1 = w1.hi - p1;
    const double below2 = p2 - w2.lo;
    const double above2 = w2.hi - p2;
    const double delta = p1 - p2;
    const double down = std::sqrt(std::max(0.0, below1 * below1 - 2 * phi * below1 * above2 + above2 * above2));
    const double up = std::sqrt(std::max(0.0, above1 * above1 - 2 * phi * above1 * below2 + below2 * below2));
    return clamped({delta - down, delta + up}, -1, 1);
}

Significance ExperimentStats::significance(const Interval& deltaCi)
{
    if (deltaCi.lo > 0)
        return Significance::Better; // NaN compares false: an undefined CI shows nothing
    if (deltaCi.hi < 0)
        return Significance::Worse;
    return Significance::NotShown;
}

Significance PairedFigures::significance() const
{
    return ExperimentStats::significance(accuracyDeltaCi);
}

double ExperimentStats::sampleSd(const std::vector<double>& values)
{
    if (values.size() < 2)
        return 0;
    double sum = 0;
    for (double v : values)
        sum += v;
    const double mean = sum / double(values.size());
    double squares = 0;
    for (double v : values)
        squares += (v - mean) * (v - mean);
    return std::sqrt(squares / double(values.size() - 1));
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
    const auto n = int64_t(values.size());
    const double sd = sampleSd(values);
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
                summary.designs[d].vsBaseline = paired(ofDesign[d], ofDesign[b]);
        }
    }
    return summary;
}

} // namespace conclave
