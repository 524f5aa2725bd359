// ExperimentStats over small fixed experiments: every figure of their
// summaries, paired deltas, ratios and agents, each worked out by hand in the
// comment beside its assertion (z = 1.959963984540054, z² = 3.841458820694125,
// t975(1) = 12.706204736, t975(3) = 3.182446305). The formulas alone:
// tst_statformulas.
#include <QtTest>

#include "support/CompareNear.h"

#include "conclave/analysis/ExperimentStats.h"
#include "conclave/experiment/ReportText.h"

#include <cmath>
#include <limits>
#include <map>
#include <set>

using namespace conclave;

namespace {

TrialRecord trial(int design, const char* task, uint64_t seed, std::optional<bool> correct, const char* domain = "")
{
    TrialRecord t;
    t.experimentId = "e1";
    t.design = design;
    t.task = task;
    t.domain = domain;
    t.seed = seed;
    t.correct = correct;
    return t;
}

TrialRecord costly(TrialRecord t, double costUsd, int64_t wallUs)
{
    t.costUsd = costUsd;
    t.wallUs = wallUs;
    return t;
}

// One seed: "solo" right on t1–t3, "pair" right on t1 and t4, "trio" right on t2–t4;
// t1, t2 are math, t3, t4 code. Fed out of task order on purpose.
std::vector<TrialRecord> oneSeedTrials()
{
    std::vector<TrialRecord> trials;
    for (const char* task : {"t3", "t1", "t4", "t2"}) {
        const std::string id = task;
        const char* domain = id == "t1" || id == "t2" ? "math" : "code";
        trials.push_back(costly(trial(0, task, 7, id != "t4", domain), 1.0, 4000));
        trials.push_back(costly(trial(1, task, 7, id == "t1" || id == "t4", domain), 2.0, 1000));
        trials.push_back(costly(trial(2, task, 7, id != "t1", domain), 1.0, 4000));
    }
    return trials;
}

// Seeds 1–3 on tasks a, b (math) and c, d (code). "base" is right on a: seeds 1, 2;
// b: 1, 3; c: 1; d: 2, 3. "better" is right everywhere but d seed 3. "base again"
// is "base" under another index.
std::vector<TrialRecord> threeSeedTrials()
{
    const std::map<std::string, std::set<uint64_t>> base = {{"a", {1, 2}}, {"b", {1, 3}}, {"c", {1}}, {"d", {2, 3}}};
    std::vector<TrialRecord> trials;
    for (const auto& [task, rightSeeds] : base) {
        const char* domain = task == "a" || task == "b" ? "math" : "code";
        for (uint64_t seed = 1; seed <= 3; ++seed) {
            trials.push_back(trial(0, task.c_str(), seed, rightSeeds.contains(seed), domain));
            trials.push_back(trial(1, task.c_str(), seed, !(task == "d" && seed == 3), domain));
            trials.push_back(trial(2, task.c_str(), seed, rightSeeds.contains(seed), domain));
        }
    }
    return trials;
}

TrialAgent agent(const char* node, bool onCriticalPath, double costUsd, int64_t wallUs, bool ran = true,
                 std::vector<int64_t> attemptsUs = {})
{
    return {node, onCriticalPath, costUsd, wallUs, ran, std::move(attemptsUs)};
}

// Four tasks under two seeds: the baseline (design 0) is wrong on every trial, "better" right on every
// trial, "half" right on one seed of each task: every task moves by the same amount.
std::vector<TrialRecord> sameMoveTrials()
{
    std::vector<TrialRecord> trials;
    for (const char* task : {"a", "b", "c", "d"}) {
        for (uint64_t seed : {1, 2}) {
            trials.push_back(trial(0, task, seed, false));
            trials.push_back(trial(1, task, seed, true));
            trials.push_back(trial(2, task, seed, seed == 1));
        }
    }
    return trials;
}

} // namespace

class TestExperimentStats : public QObject {
    Q_OBJECT

private slots:
    void oneSeedUsesWilson()
    {
        const auto s = ExperimentStats::summarize({"solo", "pair", "trio"}, 0, oneSeedTrials());
        QCOMPARE(s.baseline, 0);
        QCOMPARE(s.seeds, 1);
        QCOMPARE(int(s.designs.size()), 3);
        const auto& solo = s.designs[0];
        const auto& pair = s.designs[1];
        QCOMPARE(solo.name, std::string("solo"));
        QCOMPARE(solo.overall.trials, 4);
        QCOMPARE(solo.overall.scored, 4);
        QCOMPARE(solo.overall.tasks, 4);
        QCOMPARE(solo.overall.correct, 3);
        QCOMPARE(solo.overall.accuracy, 0.75);
        QCOMPARE(int(solo.overall.ciMethod), int(CiMethod::Wilson));
        QCOMPARE_NEAR(solo.overall.ci.lo, 0.300641842582, 1e-9); // Wilson 3/4, as in wilson()
        QCOMPARE_NEAR(solo.overall.ci.hi, 0.954412739190, 1e-9);
        QCOMPARE(pair.overall.accuracy, 0.5);
        QCOMPARE_NEAR(pair.overall.ci.lo, 0.150038989152, 1e-9); // Wilson 2/4
        QCOMPARE_NEAR(pair.overall.ci.hi, 0.849961010848, 1e-9);

        // solo per domain: math 2/2, code 1/2, each Wilson's.
        QCOMPARE(int(solo.byDomain.size()), 2);
        const auto& math = solo.byDomain.at("math");
        QCOMPARE(math.scored, 2);
        QCOMPARE(math.correct, 2);
        QCOMPARE(math.accuracy, 1.0);
        QCOMPARE_NEAR(math.ci.lo, 0.342380227507, 1e-9);
        QCOMPARE(math.ci.hi, 1.0);
        const auto& code = solo.byDomain.at("code");
        QCOMPARE(code.accuracy, 0.5);
        QCOMPARE_NEAR(code.ci.lo, 0.094531205734, 1e-9);
        QCOMPARE_NEAR(code.ci.hi, 0.905468794266, 1e-9);

        // Means and percentiles: every solo trial costs 1 and takes 4 ms, every pair trial 2 and 1 ms.
        QCOMPARE(solo.meanCostUsd, 1.0);
        QCOMPARE(solo.totalCostUsd, 4.0);
        QCOMPARE(solo.wallMs.p50, 4.0);
        QCOMPARE(pair.wallMs.p95, 1.0);

        // Cost frontier: pair (0.5, 2) is beaten by solo (0.75, 1); solo and trio are the
        // same point (0.75, 1), both on it. Latency frontier: pair's p95 of 1 ms is the lowest.
        QVERIFY(solo.paretoCost);
        QVERIFY(!pair.paretoCost);
        QVERIFY(s.designs[2].paretoCost);
        QVERIFY(solo.paretoLatency);
        QVERIFY(pair.paretoLatency);
        QVERIFY(s.designs[2].paretoLatency);

        QVERIFY(!solo.vsBaseline);
        QVERIFY(pair.vsBaseline);
        const auto& p = *pair.vsBaseline;
        // d_t over t1..t4 = (1−1, 0−1, 0−1, 1−0) = (0, −1, −1, 1): Δ = −0.25;
        // Σ(d − Δ)² = 0.0625 + 0.5625 + 0.5625 + 1.5625 = 2.75, sd = √(2.75/3) = 0.957427108,
        // half = 3.182446305·0.957427108/2 = 1.523480181 → [−1.773480181, 1.273480181], clamped to [−1, 1].
        QCOMPARE(p.accuracyDelta, -0.25);
        QCOMPARE(p.accuracyDeltaCi.lo, -1.0);
        QCOMPARE(p.accuracyDeltaCi.hi, 1.0);
        QCOMPARE(int(p.accuracyDeltaCiMethod), int(CiMethod::PairedT));
        QCOMPARE(p.tasks, 4);
        QCOMPARE(int(p.significance()), int(Significance::NotShown));
        QCOMPARE(p.wins, 1);   // t4
        QCOMPARE(p.losses, 2); // t2, t3
        QCOMPARE(p.ties, 1);   // t1
        QCOMPARE(p.regressions, 2);
        QCOMPARE(p.regressedTasks, (std::vector<std::string>{"t2", "t3"})); // in task-id order, not input order
        QCOMPARE(p.pairs, 4);
        QVERIFY(p.costRatio);
        QCOMPARE(*p.costRatio, 2.0); // 2 ÷ 1
        QVERIFY(p.wallP50Ratio);
        QCOMPARE(*p.wallP50Ratio, 0.25); // 1 ms ÷ 4 ms

        // trio against solo: d = (−1, 0, 0, 1) → Δ = 0; one win (t4), one loss (t1), two ties.
        const auto& q = *s.designs[2].vsBaseline;
        QCOMPARE(q.accuracyDelta, 0.0);
        QCOMPARE(q.wins, 1);
        QCOMPARE(q.losses, 1);
        QCOMPARE(q.ties, 2);
        QCOMPARE(q.regressedTasks, std::vector<std::string>{"t1"});
        QCOMPARE(*q.costRatio, 1.0);
    }

    void seedsClusterByTask()
    {
        const auto s = ExperimentStats::summarize({"base", "better", "base again"}, 0, threeSeedTrials());
        QCOMPARE(s.seeds, 3);
        const auto& base = s.designs[0];
        const auto& better = s.designs[1];
        const auto& again = s.designs[2];

        // base: a_t = (2/3, 2/3, 1/3, 2/3), mean 7/12 = 0.583333333; deviations (1, 1, −3, 1)/12,
        // Σ² = 12/144, sd = √(1/36) = 1/6, SE = 1/12, half = 3.182446305/12 = 0.265203859.
        QCOMPARE(base.overall.trials, 12);
        QCOMPARE(base.overall.scored, 12);
        QCOMPARE(base.overall.tasks, 4);
        QCOMPARE(int(base.overall.ciMethod), int(CiMethod::Clustered));
        QCOMPARE(base.overall.correct, 7);
        QCOMPARE_NEAR(base.overall.accuracy, 7.0 / 12.0, 1e-15);
        QCOMPARE_NEAR(base.overall.ci.lo, 0.318129474560, 1e-9);
        QCOMPARE_NEAR(base.overall.ci.hi, 0.848537192107, 1e-9);
        // better: a_t = (1, 1, 1, 2/3), mean 11/12, the same sd 1/6 → [0.651462807893, 1.181870525440],
        // the top clamped to 1.
        QCOMPARE(better.overall.correct, 11);
        QCOMPARE_NEAR(better.overall.accuracy, 11.0 / 12.0, 1e-15);
        QCOMPARE_NEAR(better.overall.ci.lo, 0.651462807893, 1e-9);
        QCOMPARE(better.overall.ci.hi, 1.0);

        // base per domain, clustered too. math: a_t = (2/3, 2/3), sd 0: no spread to measure, so the
        // Wilson interval at p = 2/3 with the 2 tasks as its trials: centre 0.557063371251,
        // half 0.397681542929 → [0.159381828322, 0.954744914180].
        const auto& math = base.byDomain.at("math");
        QCOMPARE(math.scored, 6);
        QCOMPARE(int(math.ciMethod), int(CiMethod::WilsonOverTasks));
        QCOMPARE(math.correct, 4);
        QCOMPARE(math.accuracy, 2.0 / 3.0);
        QCOMPARE_NEAR(math.ci.lo, 0.159381828322, 1e-9);
        QCOMPARE_NEAR(math.ci.hi, 0.954744914180, 1e-9);
        // code: a_t = (1/3, 2/3), mean 0.5, sd = √(1/18), SE = 1/6, half = 12.706204736/6 = 2.117700789
        // → [−1.617700789, 2.617700789], clamped to [0, 1].
        const auto& code = base.byDomain.at("code");
        QCOMPARE(code.correct, 3);
        QCOMPARE_NEAR(code.accuracy, 0.5, 1e-15);
        QCOMPARE(code.ci.lo, 0.0);
        QCOMPARE(code.ci.hi, 1.0);

        // better − base: d_t = (1/3, 1/3, 2/3, 0), Δ = 1/3; deviations (0, 0, 1/3, −1/3), Σ² = 2/9,
        // sd = √(2/27) = 0.272165527, SE = sd/2 = 0.136082763, half = 3.182446305·0.136082763 = 0.433076088.
        const auto& p = *better.vsBaseline;
        QCOMPARE_NEAR(p.accuracyDelta, 1.0 / 3.0, 1e-15);
        QCOMPARE_NEAR(p.accuracyDeltaCi.lo, -0.099742754542, 1e-9);
        QCOMPARE_NEAR(p.accuracyDeltaCi.hi, 0.766409421208, 1e-9);
        // Pairs: a (RR, RR, RW), b (RR, RW, RR), c (RR, RW, RW), d (RW, RR, WR), design first.
        QCOMPARE(p.wins, 5);
        QCOMPARE(p.losses, 1);
        QCOMPARE(p.ties, 6);
        QCOMPARE(p.regressions, 0); // d is level (2/3 each), not below
        QVERIFY(p.regressedTasks.empty());
        // No trial costs anything or takes any time: no ratios.
        QVERIFY(!p.costRatio);
        QVERIFY(!p.wallP50Ratio);

        // The baseline listed twice: every d_t is 0, so Δ = 0, and no spread for a t interval: four
        // tasks do not show two designs equal. Newcombe's interval over them: p1 = p2 = 7/12, the Wilson
        // interval at n = 4 [0.195036353151, 0.889981840773]; the tasks' covariance 1/48 is below
        // 1/2T = 1/8, so φ = 0: half = √(0.388296980182² + 0.306648507440²) = 0.494780609900.
        const auto& twice = *again.vsBaseline;
        QVERIFY(twice.accuracyDelta == 0.0); // ==, not QCOMPARE's fuzzy test near 0
        QCOMPARE(int(twice.accuracyDeltaCiMethod), int(CiMethod::Newcombe));
        QCOMPARE_NEAR(twice.accuracyDeltaCi.lo, -0.494780609900, 1e-9);
        QCOMPARE_NEAR(twice.accuracyDeltaCi.hi, 0.494780609900, 1e-9);
        QCOMPARE(int(twice.significance()), int(Significance::NotShown));
        QCOMPARE(twice.wins, 0);
        QCOMPARE(twice.losses, 0);
        QCOMPARE(twice.ties, 12);
        QCOMPARE(twice.regressions, 0);
    }

    void tasksAllRightUnderSeveralSeedsStillHaveACi()
    {
        // Four tasks, two seeds, every trial right: sd 0, so Wilson with n = 4 at p = 1: [0.510109163545, 1].
        std::vector<TrialRecord> trials;
        for (const char* task : {"a", "b", "c", "d"})
            for (uint64_t seed : {1, 2})
                trials.push_back(trial(0, task, seed, true));
        const auto s = ExperimentStats::summarize({"only"}, 0, trials);
        QCOMPARE(s.designs[0].overall.accuracy, 1.0);
        QCOMPARE_NEAR(s.designs[0].overall.ci.lo, 0.510109163545, 1e-9);
        QCOMPARE(s.designs[0].overall.ci.hi, 1.0);
        QCOMPARE(QString::fromStdString(ReportText::ciText(s.designs[0].overall.ci)), QStringLiteral("[51.0, 100.0]"));
    }

    void oneTaskUnderSeveralSeedsHasNoCi()
    {
        // Seeds 1 and 2 on one task, right once: a_t = 0.5 with T = 1, so no t interval.
        const auto s = ExperimentStats::summarize({"only"}, 0, {trial(0, "a", 1, true), trial(0, "a", 2, false)});
        QCOMPARE(s.seeds, 2);
        QCOMPARE(s.designs[0].overall.accuracy, 0.5);
        QVERIFY(std::isnan(s.designs[0].overall.ci.lo));
        QVERIFY(std::isnan(s.designs[0].overall.ci.hi));
    }

    void failedCountsAsWrongAndUnscoredIsLeftOut()
    {
        std::vector<TrialRecord> trials = {
            trial(0, "t1", 1, true),         trial(0, "t2", 1, true),         // failed below: wrong despite its verdict
            trial(0, "t3", 1, std::nullopt), trial(0, "t4", 1, std::nullopt), // ok and unscored: left out
            trial(0, "t5", 1, true),
        };
        trials[1].status = RunStatus::Failed;
        trials[2].status = RunStatus::Cancelled;
        trials[4].status = RunStatus::Partial;
        const double cost[] = {0.125, 0.25, 0.5, 1.0, 2.125};
        for (int i = 0; i < 5; ++i) {
            trials[size_t(i)].wallUs = (i == 4 ? 10 : i + 1) * 1000;        // 1, 2, 3, 4, 10 ms
            trials[size_t(i)].criticalPathUs = (i == 4 ? 10 : i + 1) * 500; // 0.5, 1, 1.5, 2, 5 ms
            trials[size_t(i)].costUsd = cost[i];
            trials[size_t(i)].judgeCostUsd = 0.0625;
            trials[size_t(i)].tokens = (i + 1) * 100;
            trials[size_t(i)].calls = i + 1;
        }
        // A trial of a design the spec does not name is ignored, its seed too.
        trials.push_back(trial(3, "t1", 99, true));

        const auto s = ExperimentStats::summarize({"only"}, 0, trials);
        QCOMPARE(s.seeds, 1);
        const auto& d = s.designs[0];
        // Scored: t1 (right), t2, t3 (failed, wrong), t5 (partial, right) → 2 of 4, Wilson 2/4.
        QCOMPARE(d.overall.trials, 5);
        QCOMPARE(d.overall.scored, 4);
        QCOMPARE(d.overall.correct, 2);
        QCOMPARE(d.overall.accuracy, 0.5);
        QCOMPARE_NEAR(d.overall.ci.lo, 0.150038989152, 1e-9);
        QCOMPARE_NEAR(d.overall.ci.hi, 0.849961010848, 1e-9);
        QCOMPARE(d.failed, 2);
        QCOMPARE(d.failureRate, 0.4); // 2 of all 5
        QCOMPARE(d.partial, 1);
        QCOMPARE(d.partialRate, 0.2);
        // wall (1, 2, 3, 4, 10): p50 = 3; p95: h = 4·0.95 = 3.8 → 4 + 0.8·6 = 8.8.
        QCOMPARE(d.wallMs.p50, 3.0);
        QCOMPARE_NEAR(d.wallMs.p95, 8.8, 1e-12);
        // critical path (0.5, 1, 1.5, 2, 5): p50 = 1.5; p95 = 2 + 0.8·3 = 4.4.
        QCOMPARE(d.criticalPathMs.p50, 1.5);
        QCOMPARE_NEAR(d.criticalPathMs.p95, 4.4, 1e-12);
        QCOMPARE(d.totalCostUsd, 4.0);            // 0.125 + 0.25 + 0.5 + 1 + 2.125
        QCOMPARE(d.meanCostUsd, 0.8);             // 4 / 5
        QCOMPARE(d.judgeCostUsd, 0.3125);         // 5 · 0.0625
        QCOMPARE(d.meanTokens, 300.0);            // (100 + … + 500) / 5
        QCOMPARE(d.meanCalls, 3.0);               // (1 + … + 5) / 5
        QVERIFY(d.paretoCost && d.paretoLatency); // alone on both
        QVERIFY(!d.vsBaseline);
    }

    void agentShares()
    {
        std::vector<TrialRecord> trials = {trial(0, "t1", 1, true), trial(0, "t2", 1, true), trial(0, "t3", 1, false),
                                           trial(0, "t4", 1, true), trial(1, "t1", 1, true)};
        for (int i = 0; i < 4; ++i)
            trials[size_t(i)].costUsd = 1.0; // the design's total: 4
        // planner retried once in t2; solver is a meeting member that spoke twice in t1 (two rounds,
        // its 5 ms of busy time), critic a vote that calls no model.
        trials[0].agents = {agent("planner", true, 0.5, 1000, true, {1000}),
                            agent("solver", true, 0.25, 5000, true, {2000, 3000})};
        trials[1].agents = {agent("critic", true, 0.5, 7000), agent("planner", true, 0.5, 2000, true, {800, 1200}),
                            agent("solver", false, 0.25, 1000, true, {1000})};
        trials[2].agents = {agent("planner", true, 0.5, 3000, true, {3000}), agent("solver", false, 0.25, 0, false)};
        trials[3].agents = {agent("planner", true, 0.5, 4000, true, {4000}),
                            agent("solver", true, 0.25, 3000, true, {3000})};
        trials[4].agents = {agent("planner", true, 0, 0, false)};

        const auto s = ExperimentStats::summarize({"team", "free"}, 0, trials);
        const auto& agents = s.designs[0].agents;
        QCOMPARE(int(agents.size()), 3);
        // First-appearance order: planner, solver (trial 1), critic (trial 2).
        QCOMPARE(agents[0].node, std::string("planner"));
        QCOMPARE(agents[1].node, std::string("solver"));
        QCOMPARE(agents[2].node, std::string("critic"));
        // planner: on the critical path in 4 of 4, cost 2 of 4; attempts (1, 0.8, 1.2, 3, 4) ms, sorted
        // (0.8, 1, 1.2, 3, 4): p50 = 1.2, p95: h = 4·0.95 = 3.8 → 3 + 0.8·1 = 3.8; busy (1, 2, 3, 4) ms → 2.5.
        QCOMPARE(agents[0].criticalPathShare, 1.0);
        QCOMPARE(agents[0].costShare, 0.5);
        QCOMPARE(agents[0].attempts, 5);
        QCOMPARE(agents[0].attemptMs.p50, 1.2);
        QCOMPARE_NEAR(agents[0].attemptMs.p95, 3.8, 1e-12);
        QCOMPARE(agents[0].busyMsPerTrial, 2.5);
        // solver: 2 of 4, cost 1 of 4; attempts (2, 3, 1, 3) ms → sorted (1, 2, 3, 3): p50 = 2.5,
        // p95: h = 2.85 → 3; its rounds are not added up: busy (5, 1, 3) ms in the three trials it ran → 3.
        QCOMPARE(agents[1].criticalPathShare, 0.5);
        QCOMPARE(agents[1].costShare, 0.25);
        QCOMPARE(agents[1].attempts, 4);
        QCOMPARE(agents[1].attemptMs.p50, 2.5);
        QCOMPARE(agents[1].attemptMs.p95, 3.0);
        QCOMPARE(agents[1].busyMsPerTrial, 3.0);
        // critic: 1 of 4, cost 0.5 of 4; no call, so no attempt latency; busy 7 ms in its one trial.
        QCOMPARE(agents[2].criticalPathShare, 0.25);
        QCOMPARE(agents[2].costShare, 0.125);
        QCOMPARE(agents[2].attempts, 0);
        QCOMPARE(agents[2].attemptMs.p50, 0.0);
        QCOMPARE(agents[2].busyMsPerTrial, 7.0);

        // A design that costs nothing gives a cost share of 0; an agent that never ran, figures of 0.
        const auto& free = s.designs[1].agents;
        QCOMPARE(int(free.size()), 1);
        QCOMPARE(free[0].criticalPathShare, 1.0);
        QCOMPARE(free[0].costShare, 0.0);
        QCOMPARE(free[0].attemptMs.p50, 0.0);
        QCOMPARE(free[0].busyMsPerTrial, 0.0);
    }

    // Every task moves the same way: no spread for the paired t interval, which would be [Δ, Δ]
    // ("+100.0 pt [100.0, 100.0]", coloured significant). Newcombe's interval over the 4 tasks instead.
    void sameMoveOnEveryTaskUsesNewcombe()
    {
        const auto s = ExperimentStats::summarize({"base", "better", "half"}, 0, sameMoveTrials());
        // better − base: d_t = 1 on every task. p1 = 1, p2 = 0; Wilson at n = 4: [0.510109163545, 1] and
        // [0, 0.489890836455]; a variance of 0 makes φ = 0:
        // lo = 1 − √(0.489890836455² + 0.489890836455²) = 0.307189735004, hi = 1 + √(0 + 0) = 1.
        const auto& better = *s.designs[1].vsBaseline;
        QCOMPARE(better.accuracyDelta, 1.0);
        QCOMPARE(int(better.accuracyDeltaCiMethod), int(CiMethod::Newcombe));
        QCOMPARE_NEAR(better.accuracyDeltaCi.lo, 0.307189735004, 1e-9);
        QCOMPARE(better.accuracyDeltaCi.hi, 1.0);
        QCOMPARE(int(better.significance()), int(Significance::Better));
        QCOMPARE(QString::fromStdString(ReportText::delta(s.designs[1])),
                 QStringLiteral("+100.0 pt [30.7, 100.0] better"));
        QCOMPARE(better.wins, 8);
        // half − base: d_t = 1/2 on every task. p1 = 1/2: Wilson [0.150038989152, 0.849961010848], so
        // p1 − l1 = u1 − p1 = 0.349961010848; p2 = 0 as before, u2 − p2 = 0.489890836455, p2 − l2 = 0:
        // lo = 0.5 − √(0.349961010848² + 0.489890836455²) = −0.102051277514,
        // hi = 0.5 + √(0.349961010848² + 0²) = 0.849961010848: the CI holds 0.
        const auto& half = *s.designs[2].vsBaseline;
        QCOMPARE(half.accuracyDelta, 0.5);
        QCOMPARE_NEAR(half.accuracyDeltaCi.lo, -0.102051277514, 1e-9);
        QCOMPARE_NEAR(half.accuracyDeltaCi.hi, 0.849961010848, 1e-9);
        QCOMPARE(int(half.significance()), int(Significance::NotShown));
        QCOMPARE(QString::fromStdString(ReportText::delta(s.designs[2])), QStringLiteral("+50.0 pt [-10.2, 85.0]"));
        // The other way round, worse.
        const auto r = ExperimentStats::summarize({"base", "better"}, 1, sameMoveTrials());
        QCOMPARE_NEAR(r.designs[0].vsBaseline->accuracyDeltaCi.lo, -1.0, 1e-12);
        QCOMPARE_NEAR(r.designs[0].vsBaseline->accuracyDeltaCi.hi, -0.307189735004, 1e-9);
        QCOMPARE(int(r.designs[0].vsBaseline->significance()), int(Significance::Worse));
        QCOMPARE(QString::fromStdString(ReportText::delta(r.designs[0])),
                 QStringLiteral("-100.0 pt [-100.0, -30.7] worse"));
    }

    // Tasks with different numbers of scored seeds: accuracy is the mean of per-task accuracies,
    // correct ÷ scored the pooled rate, and both are reported as such.
    void unevenSeedsKeepAccuracyAndCountsApart()
    {
        // a: seeds 1–3 right, right, wrong (2/3); b: seed 1 right, seeds 2 and 3 unscored (1/1);
        // c: seeds 1–3 all wrong (0/3), one more trial of c unscored.
        std::vector<TrialRecord> trials = {
            trial(0, "a", 1, true),  trial(0, "a", 2, true),         trial(0, "a", 3, false),
            trial(0, "b", 1, true),  trial(0, "b", 2, std::nullopt), trial(0, "b", 3, std::nullopt),
            trial(0, "c", 1, false), trial(0, "c", 2, false),        trial(0, "c", 3, false)};
        const auto s = ExperimentStats::summarize({"only"}, 0, trials);
        const auto& f = s.designs[0].overall;
        QCOMPARE(f.trials, 9);
        QCOMPARE(f.scored, 7);
        QCOMPARE(f.correct, 3);
        QCOMPARE(f.tasks, 3);
        // (2/3 + 1 + 0) / 3 = 5/9, not 3/7: each task weighs the same, however many seeds scored it.
        QCOMPARE_NEAR(f.accuracy, 5.0 / 9.0, 1e-15);
        QCOMPARE(int(f.ciMethod), int(CiMethod::Clustered));
    }

    // The ratios are over the (task, seed) pairs both designs ran: the baseline's extra trials (t2, and
    // t1 seed 2) and the design's trial the baseline lacks (t3) are left out.
    void ratiosArePaired()
    {
        const auto s = ExperimentStats::summarize(
            {"base", "new"}, 0,
            {costly(trial(0, "t1", 1, true), 1.0, 1000), costly(trial(0, "t1", 2, true), 1.0, 2000),
             costly(trial(0, "t2", 1, true), 100.0, 90000), costly(trial(1, "t1", 1, true), 3.0, 4000),
             costly(trial(1, "t1", 2, false), 5.0, 8000), costly(trial(1, "t3", 1, true), 1000.0, 1000)});
        const auto& p = *s.designs[1].vsBaseline;
        QCOMPARE(p.pairs, 2);
        // Cost (3 + 5) ÷ (1 + 1) = 4, not the unpaired (1008/3) ÷ (102/3); p50 wall (4, 8) ms = 6 ÷ (1, 2) ms
        // = 1.5 → 4.
        QCOMPARE(*p.costRatio, 4.0);
        QCOMPARE(*p.wallP50Ratio, 4.0);
    }

    void ratiosAreUnsetWhenTheBaselineIsFree()
    {
        const auto s = ExperimentStats::summarize(
            {"free", "paid"}, 0, {costly(trial(0, "t1", 1, true), 0, 0), costly(trial(1, "t1", 1, true), 0.5, 2000)});
        const auto& p = *s.designs[1].vsBaseline;
        QVERIFY(!p.costRatio);
        QVERIFY(!p.wallP50Ratio);
        // The other way round both are defined: 0 ÷ 0.5 and 0 ms ÷ 2 ms.
        const auto r = ExperimentStats::summarize(
            {"free", "paid"}, 1, {costly(trial(0, "t1", 1, true), 0, 0), costly(trial(1, "t1", 1, true), 0.5, 2000)});
        QCOMPARE(*r.designs[0].vsBaseline->costRatio, 0.0);
        QCOMPARE(*r.designs[0].vsBaseline->wallP50Ratio, 0.0);
        QVERIFY(!r.designs[1].vsBaseline);
    }
};

QTEST_GUILESS_MAIN(TestExperimentStats)
#include "tst_experimentstats.moc"
