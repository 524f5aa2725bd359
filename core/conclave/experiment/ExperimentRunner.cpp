#include "conclave/experiment/ExperimentRunner.h"

#include "conclave/engine/PromptBuilder.h"
#include "conclave/engine/ReplyParser.h"
#include "conclave/experiment/SharedEndpoints.h"
#include "conclave/experiment/TrialRecordBuilder.h"
#include "conclave/session/ClockChoice.h"
#include "conclave/session/Engine.h"
#include "conclave/store/RunStore.h"

#include <chrono>
#include <condition_variable>
#include <deque>
#include <filesystem>
#include <map>
#include <set>
#include <tuple>

namespace conclave {

namespace {

int64_t unixMs()
{
    using namespace std::chrono;
    return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

constexpr size_t kRetireBatch = 256;

std::string money(double usd)
{
    char text[32];
    std::snprintf(text, sizeof text, "$%.4f", usd);
    return text;
}

} // namespace

struct ExperimentRunner::Shared {
    std::mutex mutex;
    std::condition_variable changed;
    std::deque<Flight*> finished;
    std::vector<std::shared_ptr<Run>> going; // to cancel
    bool stopped = false;
    std::atomic<bool> cancel{false}; // read without the mutex when a run ends
    std::string note;
};

// A trial in flight: its design run, then (when a judge scores it) the judge's.
struct ExperimentRunner::Flight : RunObserver {
    Shared* shared = nullptr;
    PlannedTrial trial;
    std::unique_ptr<RunRecorder> recorder;
    std::shared_ptr<Run> run;
    bool judging = false;
    TrialRecord record;

    void runFinished(const RunResult&) override
    {
        std::lock_guard lock(shared->mutex);
        shared->finished.push_back(this);
        shared->changed.notify_all();
    }
};

ExperimentRunner::ExperimentRunner(Engine& engine, RunStore& store, ExperimentSpec spec, Options options)
    : m_engine(engine), m_store(store), m_spec(std::move(spec)), m_options(options), m_id(m_spec.id()),
      m_shared(std::make_shared<Shared>())
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
    std::vector<std::shared_ptr<Run>> going;
    {
        std::lock_guard lock(m_shared->mutex);
        if (!m_shared->stopped)
            m_shared->note = std::move(why);
        m_shared->stopped = true;
        if (cancelInFlight)
            m_shared->cancel = true;
        if (cancelInFlight)
            going = m_shared->going;
        m_shared->changed.notify_all();
    }
    for (const auto& run : going)
        run->cancel();
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
    std::vector<Team> teams;
    std::vector<std::filesystem::path> folders; // where each team's relative models_file is
    for (const auto& design : m_spec.designs) {
        teams.push_back(design.team);
        folders.push_back(std::filesystem::path(design.file).parent_path());
    }
    if (m_spec.judge) {
        teams.push_back(m_spec.judge->team);
        folders.push_back(std::filesystem::path(m_spec.judge->file).parent_path());
    }
    shareEndpointLimits(teams);
    std::vector<std::shared_ptr<const PreparedTeam>> prepared;
    std::vector<ClockRequest> clocks;
    for (size_t i = 0; i < teams.size(); ++i) {
        const bool isJudge = i >= m_spec.designs.size();
        const std::string what = isJudge ? "the judge" : "design \"" + m_spec.designs[i].name + "\"";
        auto ready = m_engine.prepare(teams[i], folders[i]);
        if (!ready.team)
            return fail(what + ": " + ready.error);
        const auto choice = chooseClock(*ready.team->plan, isJudge ? ClockRequest::Auto : m_spec.clock);
        if (!choice.error.empty())
            return fail(what + ": " + choice.error);
        clocks.push_back(choice.kind == ClockKind::Virtual ? ClockRequest::Virtual : ClockRequest::Real);
        if (!isJudge)
            out.clocks.push_back(choice.kind);
        prepared.push_back(std::move(ready.team));
    }

    // The experiment's tasks first, so its ids and answers win over the bundled ones.
    auto tasks = std::make_shared<TaskSet>(*m_spec.tasks);
    if (m_engine.resources().tasks)
        tasks->merge(*m_engine.resources().tasks);
    const std::shared_ptr<const TaskSet> engineTasks = tasks;

    // What is stored already: a resume runs only the rest.
    std::string error;
    auto reader = m_store.reader(error);
    if (!reader)
        return fail(error);
    std::set<std::tuple<int, std::string, uint64_t>> stored;
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
    const auto plan = planTrials(m_spec, m_options.shard);
    if (auto existing = reader->trials(m_id, error)) {
        std::set<std::tuple<int, std::string, uint64_t>> inPlan;
        for (const auto& t : plan)
            inPlan.emplace(t.design, m_spec.tasks->tasks()[t.task].id, t.seed);
        for (const auto& t : *existing) {
            auto key = std::make_tuple(t.design, t.task, t.seed);
            if (inPlan.count(key) && stored.insert(key).second)
                count(t);
        }
    } else {
        return fail(error);
    }
    reader.reset();
    out.skipped = int64_t(stored.size());
    progress.total = int64_t(plan.size());

    ExperimentRecord record;
    record.id = m_id;
    record.name = m_spec.name;
    record.status = ExperimentStatus::Running;
    record.specJson = m_spec.toJson().dump();
    record.designs = m_spec.designNames();
    record.taskset = m_spec.tasksetName;
    record.plannedTrials = int64_t(planTrials(m_spec).size());
    record.startedAtMs = unixMs();
    if (auto failed = m_store.saveExperiment(record))
        return fail(*failed);

    std::vector<const PlannedTrial*> pending;
    for (const auto& t : plan) {
        if (!stored.count({t.design, m_spec.tasks->tasks()[t.task].id, t.seed}))
            pending.push_back(&t);
    }

    const auto started = std::chrono::steady_clock::now();
    std::map<Flight*, std::unique_ptr<Flight>> flights;
    std::vector<std::unique_ptr<Flight>> retired; // finished, their recorders not yet let go
    size_t next = 0;
    double spent = 0;
    std::unique_lock lock(m_shared->mutex);

    const auto startRun = [&](Flight& flight, size_t team, std::string input, std::vector<RunObserver*> observers) {
        observers.push_back(&flight);
        Engine::StartOptions options{flight.trial.seed, std::move(observers), clocks[team], {}, engineTasks};
        auto launched = m_engine.start(*prepared[team], std::move(input), std::move(options));
        if (!launched.run)
            return launched.error;
        flight.run = launched.run;
        bool cancelNow = false;
        {
            std::lock_guard guard(m_shared->mutex);
            m_shared->going.push_back(launched.run);
            cancelNow = m_shared->cancel;
        }
        if (cancelNow)
            launched.run->cancel();
        return std::string();
    };
    const auto forget = [&](Flight& flight) {
        std::erase(m_shared->going, flight.run);
        flight.run.reset();
    };

    while (true) {
        // Dispatch while there is room, nothing stopped it and money is left.
        while (!m_shared->stopped && next < pending.size() && int(flights.size()) < m_options.concurrency) {
            if (m_options.maxCostUsd && spent >= *m_options.maxCostUsd) {
                m_shared->stopped = true;
                m_shared->note = "--max-cost " + money(*m_options.maxCostUsd) + " reached: " + money(spent) +
                                 " spent; no new trials were started";
                break;
            }
            const PlannedTrial& trial = *pending[next++];
            const auto& design = m_spec.designs[size_t(trial.design)];
            const Task& task = m_spec.tasks->tasks()[trial.task];
            auto flight = std::make_unique<Flight>();
            flight->shared = m_shared.get();
            flight->trial = trial;
            flight->record = TrialRecordBuilder::start(m_id, design.name, trial, task);
            flight->recorder = m_store.record(prepared[size_t(trial.design)]->plan->team(), error, m_id);
            if (!flight->recorder)
                return fail(error);
            flight->record.runId = flight->recorder->id();
            Flight* raw = flight.get();
            flights.emplace(raw, std::move(flight));
            lock.unlock();
            error = startRun(*raw, size_t(trial.design), task.prompt, {raw->recorder.get()});
            lock.lock();
            if (!error.empty())
                return fail("design \"" + design.name + "\": " + error);
        }
        if (flights.empty())
            break;
        m_shared->changed.wait(lock, [&] { return !m_shared->finished.empty(); });
        Flight* done = m_shared->finished.front();
        m_shared->finished.pop_front();
        lock.unlock();

        const RunResult result = done->run->wait();
        const Task& task = m_spec.tasks->tasks()[done->trial.task];
        bool complete = true;
        if (result.status == RunStatus::Cancelled && m_shared->cancel) {
            complete = false; // stopped: the trial runs again on a resume
        } else if (!done->judging) {
            TrialRecordBuilder::fillFromRun(done->record, result, prepared[size_t(done->trial.design)]->plan->team());
            spent += result.costUsd;
            const bool judged = m_spec.judge && !done->record.failed() && TrialRecordBuilder::judges(task);
            if (judged) {
                lock.lock();
                forget(*done);
                done->judging = true;
                done->record.expected = ReplyParser::normalizeAnswer(task.answer);
                const auto input = PromptBuilder::judgeInput(
                    {task.prompt, task.answer,
                     result.output.answer.empty() ? result.output.text : result.output.answer});
                lock.unlock();
                error = startRun(*done, teams.size() - 1, input, {});
                if (!error.empty()) {
                    done->record.scoreDetail = "judge did not start: " + error;
                } else {
                    done->recorder.reset();
                    lock.lock();
                    continue;
                }
            } else {
                TrialRecordBuilder::scoreByReference(done->record, task);
            }
        } else {
            spent += result.costUsd;
            TrialRecordBuilder::scoreByJudge(done->record, result);
        }

        lock.lock();
        forget(*done);
        if (complete) {
            m_store.addTrial(done->record);
            count(done->record);
            ++out.ran;
        }
        retired.push_back(std::move(flights.at(done)));
        flights.erase(done);
        lock.unlock();
        if (retired.size() >= kRetireBatch) {
            // Recorders go once their runs are stored: one commit for a batch, not one each.
            m_store.flush();
            retired.clear();
        }
        if (complete && m_onProgress) {
            progress.costUsd = spent;
            progress.elapsedS = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
            const int64_t thisRun = out.ran;
            const int64_t left = progress.total - progress.done;
            progress.etaS =
                thisRun > 0 ? std::optional(progress.elapsedS / double(thisRun) * double(left)) : std::nullopt;
            m_onProgress(progress);
        }
        lock.lock();
    }
    const bool stopped = m_shared->stopped;
    out.note = m_shared->note;
    lock.unlock();
    m_store.flush();
    retired.clear();
    lock.lock();
    const bool cancelled = m_shared->cancel.load();
    lock.unlock();

    out.stored = progress.done;
    out.status = progress.done == progress.total ? ExperimentStatus::Finished
                 : stopped && cancelled          ? ExperimentStatus::Cancelled
                                                 : ExperimentStatus::Interrupted;
    if (!stopped && out.status != ExperimentStatus::Finished)
        out.note = "some trials did not finish";
    record.status = out.status;
    record.endedAtMs = unixMs();
    record.note = out.note;
    if (auto failed = m_store.saveExperiment(record))
        out.error = *failed;
    m_store.flush();
    if (auto failed = m_store.flushTrials(); failed && out.error.empty())
        out.error = *failed;
    return out;
}

} // namespace conclave
