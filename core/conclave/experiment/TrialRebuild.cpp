#include "conclave/experiment/TrialRebuild.h"

#include "conclave/experiment/ExperimentSetup.h"
#include "conclave/experiment/ExperimentSpec.h"
#include "conclave/experiment/TeamInputs.h"
#include "conclave/experiment/TrialRecordBuilder.h"
#include "conclave/io/ContentHash.h"
#include "conclave/session/ClockChoice.h"
#include "conclave/session/Engine.h"
#include "conclave/session/RecordedStart.h"
#include "conclave/store/RunStore.h"

#include <cmath>

namespace conclave {

namespace {

// The stored trial "DESIGN/TASK/SEED" names (design names and task ids may hold "/").
const TrialRecord* findTrial(const std::vector<TrialRecord>& trials, const std::string& key)
{
    for (const auto& t : trials) {
        if (key == t.designName + "/" + t.task + "/" + std::to_string(t.seed))
            return &t;
    }
    return nullptr;
}

// Every figure of the trial's row that its run decides, stored against rebuilt.
std::vector<std::string> differences(const TrialRecord& stored, const TrialRecord& rebuilt, bool judged)
{
    std::vector<std::string> out;
    const auto differ = [&](const std::string& field, const std::string& now, const std::string& was) {
        if (now != was)
            out.push_back(field + " " + now + " (stored " + was + ")");
    };
    const auto verdict = [](const TrialRecord& t) {
        return t.correct ? std::string(*t.correct ? "correct" : "wrong") : std::string("unscored");
    };
    differ("status", std::string(toString(rebuilt.status)), std::string(toString(stored.status)));
    differ("answer", "\"" + rebuilt.answer + "\"", "\"" + stored.answer + "\"");
    if (!judged)
        differ("score", verdict(rebuilt), verdict(stored));
    differ("wall_us", std::to_string(rebuilt.wallUs), std::to_string(stored.wallUs));
    differ("critical_path_us", std::to_string(rebuilt.criticalPathUs), std::to_string(stored.criticalPathUs));
    // Costs are sums of doubles: equal to the last few ulps.
    if (std::fabs(rebuilt.costUsd - stored.costUsd) > 1e-12 * std::max(1.0, std::fabs(stored.costUsd)))
        differ("cost_usd", std::to_string(rebuilt.costUsd), std::to_string(stored.costUsd));
    differ("tokens", std::to_string(rebuilt.tokens), std::to_string(stored.tokens));
    differ("calls", std::to_string(rebuilt.calls), std::to_string(stored.calls));
    return out;
}

} // namespace

TrialRebuild::Result TrialRebuild::run(Engine& engine, RunStore& store, const ExperimentRecord& experiment,
                                       const std::string& trial, const std::filesystem::path& resourcesDir)
{
    Result out;
    const auto fail = [&](std::string error) {
        out.error = std::move(error);
        return out;
    };
    std::string error;
    const auto spec = StoredSpec::fromJson(experiment.specJson, error);
    if (!spec)
        return fail("experiment " + experiment.id + ": " + error);
    auto reader = store.reader(error);
    const auto trials = reader ? reader->trials(experiment.id, error) : std::nullopt;
    if (!trials)
        return fail(error);
    const TrialRecord* stored = findTrial(*trials, trial);
    if (!stored)
        return fail("experiment " + experiment.id + " has no trial \"" + trial +
                    "\"; name one as DESIGN/TASK/SEED, e.g. \"" +
                    (trials->empty() ? std::string("triage/math-001/1")
                                     : trials->front().designName + "/" + trials->front().task + "/" +
                                           std::to_string(trials->front().seed)) +
                    "\"");
    out.stored = *stored;
    if (stored->design < 0 || size_t(stored->design) >= spec->designs.size())
        return fail("trial \"" + trial + "\" names design " + std::to_string(stored->design) +
                    ", which the experiment does not have");
    const auto& design = spec->designs[size_t(stored->design)];

    // The team as run, reading what it read then.
    const auto folder = std::filesystem::path(design.path).parent_path();
    const auto hash = contentHash(design.teamJson + inputsHashText(inputsRead(design.team, folder)));
    if (hash != design.hash)
        return fail("design \"" + design.name + "\": a file it reads changed since the experiment ran (content hash " +
                    design.hash + ", now " + hash + "); the trial cannot be rebuilt as it ran");
    std::vector<std::string> errors;
    std::vector<std::string> warnings;
    const auto tasks = ExperimentSetup::storedTasks(*spec, resourcesDir, errors, warnings);
    if (!tasks)
        return fail(errors.empty() ? std::string("the experiment's tasks cannot be read") : errors.front());
    const Task* task = tasks->byId(stored->task);
    if (!task)
        return fail("task \"" + stored->task + "\" is not in the experiment's task set");

    const auto prepared = engine.prepare(design.team, folder);
    if (!prepared.team)
        return fail("design \"" + design.name + "\": " + prepared.error);
    const auto clock = chooseClock(*prepared.team->plan, spec->clock);
    if (!clock.error.empty())
        return fail("design \"" + design.name + "\": " + clock.error);
    if (clock.kind != ClockKind::Virtual)
        return fail("design \"" + design.name +
                    "\" ran on the real clock, against real endpoints: only a simulated trial can be rebuilt");

    // The experiment's tasks over the bundled ones, as the trial ran.
    auto known = std::make_shared<TaskSet>(*tasks);
    if (engine.resources().tasks)
        known->merge(*engine.resources().tasks);
    auto started = startRecorded(engine, &store, *prepared.team, task->prompt,
                                 Engine::StartOptions{stored->seed, {}, ClockRequest::Virtual, {}, known},
                                 RunOrigin{RunSource::Rerun, {}, {}});
    if (!started.run)
        return fail("design \"" + design.name + "\": " + started.error);
    out.run = started.run->wait();
    out.runId = started.recorder->id().str();
    if (const auto failed = started.recorder->waitUntilStored(); !failed.empty())
        return fail("the rebuilt run was not stored: " + failed);

    out.rebuilt = *stored;
    TrialRecordBuilder::fillFromRun(out.rebuilt, out.run, design.team);
    out.judged = spec->judge.has_value() && TrialRecordBuilder::judges(*task);
    if (!out.judged)
        TrialRecordBuilder::scoreByReference(out.rebuilt, *task);
    out.rebuilt.runId = started.recorder->id();
    out.differences = differences(*stored, out.rebuilt, out.judged);
    return out;
}

} // namespace conclave
