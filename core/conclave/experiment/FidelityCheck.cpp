#include "conclave/experiment/FidelityCheck.h"

#include "conclave/experiment/CalibrationSamples.h"
#include "conclave/experiment/ExperimentSetup.h"
#include "conclave/experiment/FidelityTwin.h"
#include "conclave/experiment/ModelCalibration.h"
#include "conclave/experiment/TaskSplit.h"
#include "conclave/experiment/TrialSummaries.h"
#include "conclave/session/Engine.h"
#include "conclave/store/RunQueries.h"
#include "conclave/util/NumberText.h"

#include <cmath>
#include <map>
#include <set>

namespace conclave {

namespace {

constexpr double kZ = 1.959963984540054;
constexpr int kMaxFolds = 10;

// A measured experiment, read for the check.
struct Measured {
    ExperimentRecord record;
    StoredSpec spec;
    std::shared_ptr<const TaskSet> all; // its tasks, reloaded
    std::string hash;                   // all->contentHash(): what TaskSplit reads
    int64_t predictedTasks = 0;         // its tasks in a predicted part
    ExperimentSummary summary;          // of its trials on those tasks
    size_t first = 0;                   // its first design's index in the report
};

// Trials of one experiment's predictions, pooled over the folds, and the
// calibration's spread per design (Σ over folds of tasks × resample sd).
struct Pooled {
    std::vector<TrialRecord> simulated, replayed, selfReplayed;
    std::map<size_t, double> weightedSd;
    std::map<size_t, int64_t> resampledTasks;
};

std::vector<std::string> names(const Measured& m)
{
    std::vector<std::string> out;
    for (const auto& design : m.spec.designs)
        out.push_back(design.name);
    return out;
}

std::optional<double> ratio(double predicted, double measured)
{
    if (!(measured > 0))
        return std::nullopt;
    return predicted / measured;
}

double halfWidth(const AccuracyFigures& a)
{
    return std::isfinite(a.ci.lo) && std::isfinite(a.ci.hi) ? (a.ci.hi - a.ci.lo) / 2 : 0.0;
}

std::optional<Measured> readMeasured(RunQueries& reader, const std::filesystem::path& resourcesDir,
                                     const std::string& id, const std::function<bool(const std::string&, std::string_view)>& predicted,
                                     std::string& error)
{
    Measured m;
    auto record = reader.experiment(id, error);
    if (!record)
        return std::nullopt;
    m.record = std::move(*record);
    auto spec = StoredSpec::fromJson(m.record.specJson, error);
    if (!spec) {
        error = m.record.id + ": " + error;
        return std::nullopt;
    }
    m.spec = std::move(*spec);
    std::vector<std::string> errors, warnings;
    auto all = ExperimentSetup::storedTasks(m.spec, resourcesDir, errors, warnings);
    if (!all) {
        error = m.record.id + ": " + (errors.empty() ? "its tasks cannot be reloaded" : errors.front());
        return std::nullopt;
    }
    m.all = std::make_shared<const TaskSet>(std::move(*all));
    m.hash = m.all->contentHash();
    std::set<std::string> predictedIds;
    for (const auto& taskId : m.spec.taskIds)
        if (m.all->byId(taskId) && predicted(m.hash, taskId))
            predictedIds.insert(taskId);
    m.predictedTasks = int64_t(predictedIds.size());
    auto trials = reader.trials(m.record.id, error);
    if (!trials)
        return std::nullopt;
    std::vector<TrialRecord> onPredicted;
    for (auto& trial : *trials)
        if (predictedIds.count(trial.task))
            onPredicted.push_back(std::move(trial));
    m.summary = ExperimentStats::summarize(names(m), 0, onPredicted);
    return m;
}

// The experiment's tasks in `part` of the split, in its order.
std::shared_ptr<const TaskSet> tasksIn(const Measured& m, const TaskSplit& split, size_t part)
{
    std::vector<const Task*> kept;
    for (const auto& taskId : m.spec.taskIds)
        if (const Task* task = m.all->byId(taskId); task && split.partOf(m.hash, taskId) == part)
            kept.push_back(task);
    auto held = m.all->subset(kept);
    held.drawUnmeasuredPerTrial(true); // their difficulty was not measured: a prediction averages over it
    return std::make_shared<const TaskSet>(std::move(held));
}

// Runs `teams` (by design index of `m`) on `tasks` with its seeds, in memory, on the simulated clock;
// with at least `seeds` seeds: the experiment's, then the smallest others.
std::optional<ExperimentSpec> specFor(const Measured& m, std::shared_ptr<const TaskSet> tasks,
                                      const std::map<size_t, Team>& teams, size_t seeds = 0)
{
    ExperimentSpec spec;
    spec.name = "fidelity of " + m.record.id;
    for (const auto& [index, team] : teams)
        spec.designs.push_back(makeDesign(m.spec.designs[index].name, "", team));
    if (spec.designs.empty())
        return std::nullopt;
    spec.tasksetName = m.spec.tasksetName;
    spec.tasksetBundled = m.spec.tasksetBundled;
    spec.tasks = std::move(tasks);
    spec.seeds = m.spec.seeds;
    for (uint64_t next = 0; spec.seeds.size() < seeds; ++next)
        if (std::find(spec.seeds.begin(), spec.seeds.end(), next) == spec.seeds.end())
            spec.seeds.push_back(next);
    spec.judge = m.spec.judge;
    spec.clock = ClockRequest::Virtual;
    return spec;
}

// Evaluates `spec` (made by specFor from `teams`) and appends its trials to
// `into`, each numbered by its design's index in the measured experiment.
std::optional<ExperimentSummary> evaluateInto(Engine& engine, const ExperimentSpec& spec,
                                              const std::map<size_t, Team>& teams, std::vector<TrialRecord>& into,
                                              std::string& error)
{
    std::vector<TrialRecord> trials;
    auto summary = TrialSummaries::evaluate(engine, spec, error, &trials);
    if (!summary)
        return std::nullopt;
    std::vector<size_t> original;
    for (const auto& entry : teams)
        original.push_back(entry.first);
    for (auto& trial : trials) {
        trial.design = int(original.at(size_t(trial.design)));
        into.push_back(std::move(trial));
    }
    return summary;
}

// Whether the check goes on to the stage `what`; false (and error "cancelled") when it was cancelled.
bool say(const FidelityCheck::Options& options, const std::string& what, std::string& error)
{
    if (options.cancelled && options.cancelled()) {
        error = "cancelled";
        return false;
    }
    if (options.progress)
        options.progress(what);
    return true;
}

// Predicts the designs of `m` on `tasks` (one part) from the calibrated
// profiles `models`: simulated (with the calibration's resampled spread) and
// replayed, each prediction's trials added to `into`. Designs with no twin
// get their `why` in `report`.
bool predict(Engine& engine, const Measured& m, const std::shared_ptr<const TaskSet>& tasks,
             const ModelsFile::Profiles& models, const FidelityCheck::Options& options, const std::string& fold,
             FidelityReport& report, Pooled& into, std::string& error)
{
    std::map<size_t, Team> simulated;
    for (size_t d = 0; d < m.spec.designs.size(); ++d) {
        auto& design = report.designs[m.first + d];
        if (auto twin = FidelityTwin::simulated(m.spec.designs[d].team, models, design.why))
            simulated.emplace(d, std::move(*twin));
    }
    if (const auto spec = specFor(m, tasks, simulated, options.simulatedSeeds)) {
        report.simulatedSeeds = std::max(report.simulatedSeeds, spec->seeds.size());
        if (!say(options, "simulating " + std::to_string(spec->designs.size()) + " designs of " + m.record.id + fold,
                 error))
            return false;
        const auto summary = evaluateInto(engine, *spec, simulated, into.simulated, error);
        if (!summary)
            return false;
        if (!say(options, "resampling the calibration (" + std::to_string(options.resamples) + " resamples)", error))
            return false;
        const auto predictions =
            CalibrationUncertainty::predict(engine, *spec, *summary, nullptr, options.resamples, error);
        if (!predictions)
            return false;
        size_t i = 0;
        for (const auto& entry : simulated) {
            if (const auto& prediction = (*predictions)[i]; prediction && prediction->resamples > 0) {
                const auto tasksRun = summary->designs[i].overall.tasks;
                into.weightedSd[entry.first] += double(tasksRun) * prediction->resampleSd;
                into.resampledTasks[entry.first] += tasksRun;
            }
            ++i;
        }
    }
    if (!options.replay)
        return true;
    for (const bool self : {false, true}) {
        std::map<size_t, Team> replayed;
        for (size_t d = 0; d < m.spec.designs.size(); ++d) {
            // The others' calls only; or its own only, so that a call of another design recorded
            // under the same role (a cascade's second member and a debate's second round are both
            // "expert:0#2") cannot stand in for its own.
            std::vector<std::string> excluded;
            for (size_t other = 0; other < m.spec.designs.size(); ++other)
                if ((other == d) != self)
                    excluded.push_back(m.spec.designs[other].name);
            std::string why;
            if (auto twin = FidelityTwin::replayed(m.spec.designs[d].team, {m.record.id}, excluded, models, why))
                replayed.emplace(d, std::move(*twin));
        }
        const auto spec = specFor(m, tasks, replayed);
        if (!spec)
            continue;
        if (!say(options,
                 std::string(self ? "replaying each design's own calls" : "replaying the other designs' calls") +
                     " of " + m.record.id + fold,
                 error))
            return false;
        if (!evaluateInto(engine, *spec, replayed, self ? into.selfReplayed : into.replayed, error))
            return false;
    }
    return true;
}

// Every fold's predictions of `m` together, against the measurement on the same tasks.
void pool(const Measured& m, Pooled& p, FidelityReport& report)
{
    const auto simulated = ExperimentStats::summarize(names(m), 0, p.simulated);
    const auto replayed = ExperimentStats::summarize(names(m), 0, p.replayed);
    const auto selfReplayed = ExperimentStats::summarize(names(m), 0, p.selfReplayed);
    for (size_t d = 0; d < m.spec.designs.size(); ++d) {
        auto& design = report.designs[m.first + d];
        if (simulated.designs[d].overall.trials > 0) {
            auto figures = simulated.designs[d];
            // The folds' calibrations are resampled with one set of draws (keyed by model, domain and
            // resample), so their spreads add as if fully correlated: a task-weighted mean of the sds.
            if (const auto n = p.resampledTasks[d]; n > 0)
                figures.overall.ci = CalibrationUncertainty::combine(figures.overall.accuracy, figures.overall.ci,
                                                                     p.weightedSd[d] / double(n));
            design.simulated = FidelityCheck::compare(figures, design);
        }
        if (replayed.designs[d].overall.trials > 0)
            design.replayed = FidelityCheck::compare(replayed.designs[d], design);
        if (selfReplayed.designs[d].overall.trials > 0)
            design.selfReplay = FidelityCheck::compare(selfReplayed.designs[d], design);
    }
}

} // namespace

FidelityPrediction FidelityCheck::compare(const DesignSummary& predicted, const FidelityDesign& measured)
{
    FidelityPrediction p;
    p.accuracy = predicted.overall;
    p.meanCostUsd = predicted.meanCostUsd;
    p.wallMs = predicted.wallMs;
    const double se = std::hypot(halfWidth(p.accuracy), halfWidth(measured.measured)) / kZ;
    const double difference = p.accuracy.accuracy - measured.measured.accuracy;
    p.z = se > 0 ? difference / se : (difference == 0 ? 0.0 : std::copysign(INFINITY, difference));
    p.within = std::abs(difference) <= kZ * se;
    p.costRatio = ratio(p.meanCostUsd, measured.measuredCostUsd);
    p.p50Ratio = ratio(p.wallMs.p50, measured.measuredWallMs.p50);
    p.p95Ratio = ratio(p.wallMs.p95, measured.measuredWallMs.p95);
    return p;
}

std::optional<FidelityReport> FidelityCheck::run(Engine& engine, RunQueries& reader,
                                                 const std::filesystem::path& resourcesDir,
                                                 const std::vector<std::string>& experimentIds,
                                                 const Options& options, std::string& error)
{
    // One split at `holdout` predicts part 1; K folds predict every part, each from the others.
    std::optional<TaskSplit> split;
    std::vector<size_t> predictedParts;
    if (options.folds >= 2) {
        if (options.folds > kMaxFolds) {
            error = "--folds: expected 2 to " + std::to_string(kMaxFolds) + " (1 for one split), got " +
                    std::to_string(options.folds);
            return std::nullopt;
        }
        split = TaskSplit::make(std::vector<double>(size_t(options.folds), 1.0 / options.folds), options.seed, error);
        for (size_t part = 0; part < size_t(options.folds); ++part)
            predictedParts.push_back(part);
    } else {
        split = TaskSplit::holdout(options.holdout, options.seed, error);
        predictedParts = {1};
    }
    if (!split)
        return std::nullopt;
    const std::set<size_t> predictedSet(predictedParts.begin(), predictedParts.end());
    FidelityReport report;
    report.folds = std::max(1, options.folds);
    report.holdout = options.folds >= 2 ? 1.0 / options.folds : options.holdout;
    report.seed = options.seed;
    report.resamples = options.resamples;

    std::vector<Measured> measured;
    const auto isPredicted = [&](const std::string& hash, std::string_view task) {
        return predictedSet.count(split->partOf(hash, task)) > 0;
    };
    for (const auto& id : experimentIds) {
        auto m = readMeasured(reader, resourcesDir, id, isPredicted, error);
        if (!m)
            return std::nullopt;
        if (std::find(report.experiments.begin(), report.experiments.end(), m->record.id) != report.experiments.end())
            continue;
        report.experiments.push_back(m->record.id);
        m->first = report.designs.size();
        report.heldOutTasks += m->predictedTasks;
        report.calibrationTasks += int64_t(m->spec.taskIds.size()) - (options.folds >= 2 ? 0 : m->predictedTasks);
        for (size_t d = 0; d < m->spec.designs.size(); ++d) {
            FidelityDesign design;
            design.name = m->spec.designs[d].name;
            design.experiment = m->record.id;
            design.combines = FidelityTwin::combines(m->spec.designs[d].team);
            const auto& figures = m->summary.designs[d];
            design.measured = figures.overall;
            design.measuredCostUsd = figures.meanCostUsd;
            design.measuredWallMs = figures.wallMs;
            report.designs.push_back(std::move(design));
        }
        measured.push_back(std::move(*m));
    }
    // Two experiments with a design of one name: say which is which.
    std::map<std::string, int> named;
    for (const auto& d : report.designs)
        ++named[d.name];
    for (auto& d : report.designs)
        if (named[d.name] > 1)
            d.name += " (" + d.experiment + ")";
    std::set<size_t> partsWithTasks;
    for (const auto& m : measured)
        for (const auto& taskId : m.spec.taskIds)
            if (m.all->byId(taskId))
                partsWithTasks.insert(split->partOf(m.hash, taskId));
    if (report.heldOutTasks == 0 || partsWithTasks.size() < 2) {
        error = options.folds >= 2 ? "--folds " + std::to_string(options.folds) + " needs tasks in more than one part"
                                   : "--holdout " + formatNumber(options.holdout) + " leaves " +
                                         (report.heldOutTasks == 0 ? "no task held out" : "no task to calibrate on");
        error += " (seed " + std::to_string(options.seed) + ")";
        return std::nullopt;
    }

    std::vector<Pooled> pooled(measured.size());
    std::set<std::string> notMeasured;
    for (const size_t part : predictedParts) {
        const std::string fold =
            options.folds >= 2 ? " (part " + std::to_string(part + 1) + " of " + std::to_string(options.folds) + ")" : "";
        if (!say(options, "calibrating on the other tasks" + fold, error))
            return std::nullopt;
        const auto samples = CalibrationSamples::read(
            reader, report.experiments, resourcesDir, error,
            [&](std::string_view hash, std::string_view task) { return split->partOf(hash, task) != part; });
        if (!samples)
            return std::nullopt;
        report.answers += int64_t(samples->answers.size());
        const auto fit = ModelCalibration::fit(*samples, engine.resources().localModels, {});
        if (!fit.error.empty()) {
            error = fit.error;
            return std::nullopt;
        }
        for (const auto& [model, profile] : fit.models) {
            std::string kept;
            for (const auto& field : ModelCalibration::defaultsKept(profile))
                kept += (kept.empty() ? "" : ", ") + field;
            if (!kept.empty() && notMeasured.insert(model + ": " + kept).second)
                report.notMeasured.push_back(model + ": " + kept);
        }

        for (size_t e = 0; e < measured.size(); ++e) {
            const auto tasks = tasksIn(measured[e], *split, part);
            if (!tasks->tasks().empty() &&
                !predict(engine, measured[e], tasks, fit.models, options, fold, report, pooled[e], error))
                return std::nullopt;
        }
    }

    for (size_t e = 0; e < measured.size(); ++e)
        pool(measured[e], pooled[e], report);
    std::vector<double> predicted, actual;
    std::vector<Interval> actualCi;
    std::vector<double> replayedAcc, replayedActual;
    std::vector<Interval> replayedCi;
    bool anyCombines = false;
    for (const auto& d : report.designs) {
        anyCombines = anyCombines || d.combines;
        if (d.simulated) {
            predicted.push_back(d.simulated->accuracy.accuracy);
            actual.push_back(d.measured.accuracy);
            actualCi.push_back(d.measured.ci);
        }
        if (d.replayed) {
            replayedAcc.push_back(d.replayed->accuracy.accuracy);
            replayedActual.push_back(d.measured.accuracy);
            replayedCi.push_back(d.measured.ci);
        }
    }
    report.simulatedOrder = RankAgreement::of(predicted, actual, actualCi);
    report.replayedOrder = RankAgreement::of(replayedAcc, replayedActual, replayedCi);
    if (!anyCombines)
        report.limitation = "only single-model designs were measured: this checks skills, not how models combine";
    else if (report.designs.size() < 2)
        report.limitation = "only one design was measured: measure at least two to check how the simulator orders them";
    return report;
}

} // namespace conclave
