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

// A measured experiment, read for the check.
struct Measured {
    ExperimentRecord record;
    StoredSpec spec;
    std::shared_ptr<const TaskSet> heldOut; // the experiment's tasks in part 1, in its order
    ExperimentSummary summary;              // of its trials on those tasks
    size_t first = 0;                       // its first design's index in the report
};

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
                                     const std::string& id, const TaskSplit& split, std::string& error)
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
    const auto all = ExperimentSetup::storedTasks(m.spec, resourcesDir, errors, warnings);
    if (!all) {
        error = m.record.id + ": " + (errors.empty() ? "its tasks cannot be reloaded" : errors.front());
        return std::nullopt;
    }
    const auto hash = all->contentHash();
    std::vector<const Task*> kept;
    for (const auto& taskId : m.spec.taskIds)
        if (const Task* task = all->byId(taskId); task && split.partOf(hash, taskId) == 1)
            kept.push_back(task);
    m.heldOut = std::make_shared<const TaskSet>(all->subset(kept));
    auto trials = reader.trials(m.record.id, error);
    if (!trials)
        return std::nullopt;
    std::set<std::string> heldOutIds;
    for (const Task* task : kept)
        heldOutIds.insert(task->id);
    std::vector<TrialRecord> onHeldOut;
    for (auto& trial : *trials)
        if (heldOutIds.count(trial.task))
            onHeldOut.push_back(std::move(trial));
    std::vector<std::string> names;
    for (const auto& design : m.spec.designs)
        names.push_back(design.name);
    m.summary = ExperimentStats::summarize(names, 0, onHeldOut);
    return m;
}

// Runs `teams` (by design index of `m`) on its held-out tasks and seeds, in memory, on the simulated clock;
// with at least `seeds` seeds: the experiment's, then the smallest others.
std::optional<ExperimentSpec> specFor(const Measured& m, const std::map<size_t, Team>& teams, size_t seeds = 0)
{
    ExperimentSpec spec;
    spec.name = "fidelity of " + m.record.id;
    for (const auto& [index, team] : teams)
        spec.designs.push_back(makeDesign(m.spec.designs[index].name, "", team));
    if (spec.designs.empty())
        return std::nullopt;
    spec.tasksetName = m.spec.tasksetName;
    spec.tasksetBundled = m.spec.tasksetBundled;
    spec.tasks = m.heldOut;
    spec.seeds = m.spec.seeds;
    for (uint64_t next = 0; spec.seeds.size() < seeds; ++next)
        if (std::find(spec.seeds.begin(), spec.seeds.end(), next) == spec.seeds.end())
            spec.seeds.push_back(next);
    spec.judge = m.spec.judge;
    spec.clock = ClockRequest::Virtual;
    return spec;
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
    const auto split = TaskSplit::holdout(options.holdout, options.seed, error);
    if (!split)
        return std::nullopt;
    FidelityReport report;
    report.holdout = options.holdout;
    report.seed = options.seed;
    report.resamples = options.resamples;

    std::vector<Measured> measured;
    std::set<std::string> calibrationTasks;
    for (const auto& id : experimentIds) {
        auto m = readMeasured(reader, resourcesDir, id, *split, error);
        if (!m)
            return std::nullopt;
        if (std::find(report.experiments.begin(), report.experiments.end(), m->record.id) != report.experiments.end())
            continue;
        report.experiments.push_back(m->record.id);
        m->first = report.designs.size();
        report.heldOutTasks += int64_t(m->heldOut->tasks().size());
        report.calibrationTasks += int64_t(m->spec.taskIds.size() - m->heldOut->tasks().size());
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
    if (report.heldOutTasks == 0 || report.calibrationTasks == 0) {
        error = "--holdout " + formatNumber(options.holdout) + " leaves " +
                (report.heldOutTasks == 0 ? "no task held out" : "no task to calibrate on") + " (seed " +
                std::to_string(options.seed) + ")";
        return std::nullopt;
    }

    if (!say(options, "calibrating on " + std::to_string(report.calibrationTasks) + " tasks", error))
        return std::nullopt;
    const auto samples =
        CalibrationSamples::read(reader, report.experiments, resourcesDir, error,
                                 [&](std::string_view hash, std::string_view task) { return split->partOf(hash, task) == 0; });
    if (!samples)
        return std::nullopt;
    report.answers = int64_t(samples->answers.size());
    const auto fit = ModelCalibration::fit(*samples, engine.resources().localModels, {});
    if (!fit.error.empty()) {
        error = fit.error;
        return std::nullopt;
    }
    for (const auto& [model, profile] : fit.models) {
        std::string kept;
        for (const auto& field : ModelCalibration::defaultsKept(profile))
            kept += (kept.empty() ? "" : ", ") + field;
        if (!kept.empty())
            report.notMeasured.push_back(model + ": " + kept);
    }

    for (const auto& m : measured) {
        std::map<size_t, Team> simulated;
        for (size_t d = 0; d < m.spec.designs.size(); ++d) {
            auto& design = report.designs[m.first + d];
            if (auto twin = FidelityTwin::simulated(m.spec.designs[d].team, fit.models, design.why))
                simulated.emplace(d, std::move(*twin));
        }
        if (const auto spec = specFor(m, simulated, options.simulatedSeeds)) {
            report.simulatedSeeds = std::max(report.simulatedSeeds, spec->seeds.size());
            if (!say(options, "simulating " + std::to_string(spec->designs.size()) + " designs of " + m.record.id,
                     error))
                return std::nullopt;
            auto summary = TrialSummaries::evaluate(engine, *spec, error);
            if (!summary)
                return std::nullopt;
            if (!say(options, "resampling the calibration (" + std::to_string(options.resamples) + " resamples)",
                     error))
                return std::nullopt;
            const auto predictions =
                CalibrationUncertainty::predict(engine, *spec, *summary, nullptr, options.resamples, error);
            if (!predictions)
                return std::nullopt;
            size_t i = 0;
            for (const auto& [d, team] : simulated) {
                auto& figures = summary->designs[i];
                if ((*predictions)[i])
                    figures.overall.ci = (*predictions)[i]->ci;
                report.designs[m.first + d].simulated = compare(figures, report.designs[m.first + d]);
                ++i;
            }
        }
        if (!options.replay)
            continue;
        for (const bool self : {false, true}) {
            std::map<size_t, Team> replayed;
            for (size_t d = 0; d < m.spec.designs.size(); ++d) {
                std::vector<std::string> excluded;
                if (!self)
                    excluded.push_back(m.spec.designs[d].name);
                std::string why;
                if (auto twin = FidelityTwin::replayed(m.spec.designs[d].team, {m.record.id}, excluded, fit.models, why))
                    replayed.emplace(d, std::move(*twin));
            }
            const auto spec = specFor(m, replayed);
            if (!spec)
                continue;
            if (!say(options,
                     std::string(self ? "replaying every recorded call" : "replaying the other designs' calls") +
                         " of " + m.record.id,
                     error))
                return std::nullopt;
            const auto summary = TrialSummaries::evaluate(engine, *spec, error);
            if (!summary)
                return std::nullopt;
            size_t i = 0;
            for (const auto& [d, team] : replayed) {
                auto& design = report.designs[m.first + d];
                (self ? design.selfReplay : design.replayed) = compare(summary->designs[i], design);
                ++i;
            }
        }
    }

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
