#include "conclave/experiment/ExperimentRunner.h"

#include "conclave/engine/PromptBuilder.h"
#include "conclave/experiment/SharedEndpoints.h"
#include "conclave/experiment/TrialDispatcher.h"
#include "conclave/experiment/TrialPlanner.h"
#include "conclave/experiment/TrialRecordBuilder.h"
#include "conclave/experiment/TrialScorer.h"
#include "conclave/experiment/TrialSink.h"
#include "conclave/session/ClockChoice.h"
#include "conclave/session/Engine.h"
#include "conclave/util/MoneyText.h"

#include <chrono>
#include <filesystem>
#include <mutex>

namespace conclave {

namespace {

int64_t unixMs()
{
    using namespace std::chrono;
    return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

// Finished trials' recorders are let go in batches, after one commit for all.
constexpr size_t kRetireBatch = 256;

// A team of the experiment, ready to run: a design's, or the judge's (last).
struct ReadyTeam {
    std::shared_ptr<const PreparedTeam> prepared;
    ClockRequest clock = ClockRequest::Auto;
    ClockKind kind = ClockKind::Real;
};

} // namespace

// What stop() reaches from another thread.
struct ExperimentRunner::Stopping {
    std::mutex mutex;
    bool stopped = false;
    bool cancel = false;
    std::string note;
    TrialDispatcher* active = nullptr; // while run() dispatches
};

ExperimentRunner::ExperimentRunner(Engine& engine, TrialSink& sink, ExperimentSpec spec, Options options)
    : m_engine(engine), m_sink(sink), m_spec(std::move(spec)), m_options(options), m_id(m_spec.id()),
      m_stopping(std::make_unique<Stopping>())
{
    if (m_options.concurrency < 1)
        m_options.concurrency = 1;
}

ExperimentRunner::~ExperimentRunner() = default;

void ExperimentRunner::setProgressHandler(std::function<void(const Progress&)> handler)
{
    m_onProgress = std::move(handler);
}

void ExperimentRunner::stop(std::string why, bool cancelInFlight)
{
    std::lock_guard lock(m_stopping->mutex);
    if (!m_stopping->stopped)
        m_stopping->note = std::move(why);
    m_stopping->stopped = true;
    if (cancelInFlight) {
        m_stopping->cancel = true;
        if (m_stopping->active)
            m_stopping->active->cancelAll();
    }
}

ExperimentRunner::Outcome ExperimentRunner::run()
{
    Outcome out;
    const auto fail = [&](std::string error) {
        out.error = std::move(error);
        return out;
    };
    if (!m_spec.tasks || m_spec.designs.empty())
        return fail("the experiment has no designs or no tasks");

    // Designs and judge, prepared once each, with endpoints shared across them.
    std::vector<const ExperimentDesign*> sources;
    for (const auto& design : m_spec.designs)
        sources.push_back(&design);
    if (m_spec.judge)
        sources.push_back(&*m_spec.judge);
    std::vector<Team> teams;
    for (const auto* design : sources)
        teams.push_back(design->team);
    shareEndpointLimits(teams);
    std::vector<ReadyTeam> ready;
    for (size_t i = 0; i < teams.size(); ++i) {
        const bool isJudge = i >= m_spec.designs.size();
        const std::string what = isJudge ? "the judge" : "design \"" + sources[i]->name + "\"";
        // A relative models_file is found beside the team file, wherever this runs from.
        auto prepared = m_engine.prepare(teams[i], std::filesystem::path(sources[i]->path).parent_path());
        if (!prepared.team)
            return fail(what + ": " + prepared.error);
        const auto choice = chooseClock(*prepared.team->plan, isJudge ? ClockRequest::Auto : m_spec.clock);
        if (!choice.error.empty())
            return fail(what + ": " + choice.error);
        if (m_options.virtualClockOnly && !isJudge && choice.kind != ClockKind::Virtual)
            return fail(what + " runs on the real clock: only a simulated run can be rebuilt from its summary; "
                               "store its runs (--store runs)");
        const auto clock = choice.kind == ClockKind::Virtual ? ClockRequest::Virtual : ClockRequest::Real;
        if (!isJudge)
            out.clocks.push_back(choice.kind);
        ready.push_back({std::move(prepared.team), clock, choice.kind});
    }

    // The experiment's tasks first, so its ids and answers win over the bundled ones.
    auto merged = std::make_shared<TaskSet>(*m_spec.tasks);
    if (m_engine.resources().tasks)
        merged->merge(*m_engine.resources().tasks);
    const std::shared_ptr<const TaskSet> engineTasks = merged;
    const auto& tasks = m_spec.tasks->tasks();

    // What is kept already: a resume runs only the rest, and counts what was spent.
    std::string error;
    const auto before = m_sink.experiment(m_id, error);
    if (!error.empty())
        return fail(error);
    const auto keptBefore = m_sink.trials(m_id, error);
    if (!keptBefore)
        return fail(error);
    const TrialAgenda agenda = TrialPlanner::make(m_spec, m_options.shard, *keptBefore);
    Progress progress;
    progress.correct.assign(m_spec.designs.size(), 0);
    progress.scored.assign(m_spec.designs.size(), 0);
    const auto count = [&](const TrialRecord& t) {
        ++progress.done;
        if (t.failed())
            ++progress.failed;
        if (t.correct) {
            ++progress.scored[size_t(t.design)];
            progress.correct[size_t(t.design)] += *t.correct ? 1 : 0;
        }
    };
    for (const auto& t : agenda.kept)
        count(t);
    out.skipped = int64_t(agenda.kept.size());
    progress.total = int64_t(agenda.planned.size());
    const double spentBefore = before ? before->spentUsd : 0;
    progress.spentUsd = spentBefore;

    ExperimentRecord record;
    record.id = m_id;
    record.name = m_spec.name;
    record.status = ExperimentStatus::Running;
    record.specJson = m_spec.toJson().dump();
    record.designs = m_spec.designNames();
    record.taskset = m_spec.tasksetName;
    record.plannedTrials = int64_t(planTrials(m_spec).size());
    record.startedAtMs = before ? before->startedAtMs : unixMs();
    record.spentUsd = spentBefore;
    if (auto failed = m_sink.saveExperiment(record))
        return fail(*failed);

    // From here on, every path waits for what it started: the dispatcher owns
    // each flight until its run has ended, and its destructor cancels and waits.
    const TrialScorer scorer(m_spec);
    TrialDispatcher dispatch(m_engine);
    {
        std::lock_guard lock(m_stopping->mutex);
        m_stopping->active = &dispatch;
        if (m_stopping->cancel)
            dispatch.cancelAll();
    }
    const auto stopped = [&] {
        std::lock_guard lock(m_stopping->mutex);
        return m_stopping->stopped;
    };
    std::string failure; // why it cannot go on
    const auto failWith = [&](std::string why) {
        if (failure.empty())
            failure = std::move(why);
        dispatch.cancelAll();
    };
    std::vector<std::unique_ptr<TrialFlight>> retired;
    const auto commit = [&] {
        const auto committed = m_sink.commit();
        retired.clear();
        if (committed.lost > 0)
            failWith(std::to_string(committed.lost) + (committed.lost == 1 ? " trial was" : " trials were") +
                     " not stored: " + committed.error);
    };
    const auto started = std::chrono::steady_clock::now();
    size_t next = 0;
    double spent = 0;
    while (true) {
        // Dispatch while there is room, nothing stopped it and money is left.
        while (failure.empty() && !stopped() && next < agenda.pending.size() &&
               dispatch.inFlight() < size_t(m_options.concurrency)) {
            if (m_options.maxCostUsd && spentBefore + spent >= *m_options.maxCostUsd) {
                stop("--max-cost " + moneyText(*m_options.maxCostUsd) + " reached: " +
                         moneyText(spentBefore + spent) + " spent; no new trials were started",
                     false);
                break;
            }
            const PlannedTrial& trial = agenda.planned[agenda.pending[next++]];
            const auto& design = m_spec.designs[size_t(trial.design)];
            const Task& task = tasks[trial.task];
            auto flight = std::make_unique<TrialFlight>();
            flight->trial = agenda.pending[next - 1];
            flight->record = TrialRecordBuilder::start(m_id, design.name, trial, task);
            const auto& team = ready[size_t(trial.design)];
            error.clear();
            auto recorder = m_sink.recorder(team.prepared->plan->team(), m_id, error);
            if (!recorder && !error.empty()) {
                failWith("design \"" + design.name + "\": " + error);
                break;
            }
            error = dispatch.start(flight, {team.prepared.get(), task.prompt,
                                            Engine::StartOptions{trial.seed, {}, team.clock, {}, engineTasks},
                                            std::move(recorder)});
            if (!error.empty())
                failWith("design \"" + design.name + "\": " + error);
        }
        auto ended = dispatch.next();
        if (!ended.flight)
            break;
        spent += ended.result.costUsd;
        TrialFlight& flight = *ended.flight;
        const PlannedTrial& trial = agenda.planned[flight.trial];
        bool complete = true;
        if (ended.result.status == RunStatus::Cancelled && dispatch.cancelling()) {
            complete = false; // stopped: the trial runs again on a resume
        } else if (!flight.judging) {
            if (flight.recorder)
                flight.record.runId = flight.recorder->id();
            if (auto judged = scorer.afterDesign(flight.record, ended.result, tasks[trial.task])) {
                flight.judging = true;
                const auto& judge = ready.back();
                // Stored too, so that a recorded backend can replay its verdicts. The judge team reads
                // the case as its input; the engine tells its calls the case as data.
                error.clear();
                auto judgeRecorder = m_sink.recorder(judge.prepared->plan->team(), m_id, error);
                if (!judgeRecorder && !error.empty()) {
                    failWith("the judge: " + error);
                } else {
                    auto input = PromptBuilder::judgeInput(*judged);
                    error = dispatch.start(
                        ended.flight,
                        {judge.prepared.get(), std::move(input),
                         Engine::StartOptions{trial.seed, {}, judge.clock, {}, engineTasks, std::move(*judged)},
                         std::move(judgeRecorder)});
                    if (error.empty())
                        continue; // in flight again, for its judge
                }
                scorer.judgeDidNotStart(flight.record, error);
            }
        } else {
            if (flight.judgeRecorder)
                flight.record.judgeRunId = flight.judgeRecorder->id();
            scorer.afterJudge(flight.record, ended.result);
        }
        if (complete) {
            m_sink.add(flight.record);
            count(flight.record);
            ++out.ran;
        }
        retired.push_back(std::move(ended.flight));
        if (retired.size() >= kRetireBatch)
            commit();
        if (complete && m_onProgress) {
            progress.costUsd = spent;
            progress.spentUsd = spentBefore + spent;
            progress.elapsedS = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
            const int64_t left = progress.total - progress.done;
            progress.etaS = out.ran > 0 ? std::optional(progress.elapsedS / double(out.ran) * double(left))
                                        : std::nullopt;
            m_onProgress(progress);
        }
    }
    commit();
    bool cancelled = false;
    {
        std::lock_guard lock(m_stopping->mutex);
        m_stopping->active = nullptr;
        out.note = m_stopping->note;
        cancelled = m_stopping->cancel;
    }
    if (auto untidy = m_sink.finish(m_id))
        out.error = *untidy;

    out.stored = progress.done;
    if (!failure.empty()) {
        out.status = ExperimentStatus::Failed;
        out.note = failure;
        out.error = failure;
    } else if (progress.done == progress.total) {
        out.status = ExperimentStatus::Finished;
    } else if (stopped()) {
        out.status = cancelled ? ExperimentStatus::Cancelled : ExperimentStatus::Interrupted;
    } else {
        out.status = ExperimentStatus::Interrupted;
        out.note = "some trials did not finish";
    }
    record.status = out.status;
    record.endedAtMs = unixMs();
    record.note = out.note;
    record.spentUsd = spentBefore + spent;
    if (auto failed = m_sink.saveExperiment(record); failed && out.error.empty())
        out.error = *failed;
    if (const auto committed = m_sink.commit(); !committed.error.empty() && out.error.empty())
        out.error = committed.error;
    return out;
}

} // namespace conclave
