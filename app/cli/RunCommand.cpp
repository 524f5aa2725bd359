#include "ClockLine.h"
#include "Commands.h"
#include "ProgressLine.h"

#include "conclave/engine/ReplyParser.h"
#include "conclave/engine/RunJson.h"
#include "conclave/io/TeamFile.h"
#include "conclave/session/Engine.h"
#include "conclave/session/RecordedStart.h"
#include "conclave/store/RunStore.h"

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <iomanip>
#include <map>
#include <ostream>
#include <random>
#include <sstream>
#include <unistd.h>

namespace conclave::cli {

namespace {

std::atomic<bool> g_interrupted{false};

extern "C" void onInterrupt(int)
{
    g_interrupted.store(true);
}

std::string ms(int64_t us)
{
    std::ostringstream out;
    out << std::fixed << std::setprecision(us >= 10'000'000 ? 1 : 0) << double(us) / 1000.0;
    return out.str();
}

void printHuman(std::ostream& out, const RunResult& r, const Team& team, const std::string& runId)
{
    out << "run " << runId << ": " << toString(r.status) << "  (wall " << ms(r.wallUs) << " ms, critical path "
        << ms(r.criticalPath.lengthUs) << " ms, " << r.calls << " calls, " << (r.tokensIn + r.tokensOut) << " tokens, $"
        << std::fixed << std::setprecision(6) << r.costUsd << ")\n";
    out.unsetf(std::ios::fixed);
    out << clockLine(r.clock, r.cpuUs) << '\n';
    if (r.output.ok())
        out << "answer: " << r.output.answer << "  (confidence " << std::setprecision(2) << r.output.confidence
            << ")\n";
    else if (!r.output.error.empty())
        out << "no answer: " << r.output.error << '\n';
    out << '\n'
        << std::left << std::setw(20) << "agent" << std::setw(18) << "status" << std::right << std::setw(6) << "calls"
        << std::setw(10) << "wall ms" << std::setw(9) << "tokens" << std::setw(11) << "cost $" << '\n';
    std::map<NodeId, std::pair<int, int64_t>> perNode; // calls, wall
    for (const auto& s : r.spans) {
        if (s.kind == SpanKind::Attempt)
            perNode[s.node].first += 1;
        if (s.kind == SpanKind::Node)
            perNode[s.node].second += s.durationUs();
    }
    for (const auto& node : team.nodes) {
        const auto& result = r.results.at(node.id);
        const auto& [calls, wall] = perNode[node.id];
        std::ostringstream cost;
        cost << std::fixed << std::setprecision(6) << result.costUsd;
        out << std::left << std::setw(20) << node.id.str().substr(0, 19) << std::setw(18) << toString(result.status)
            << std::right << std::setw(6) << calls << std::setw(10) << ms(wall) << std::setw(9)
            << (result.tokensIn + result.tokensOut) << std::setw(11) << cost.str() << '\n';
    }
    out << "\ncritical path:";
    for (size_t i = 0; i < r.criticalPath.nodes.size(); ++i)
        out << (i ? " -> " : " ") << r.criticalPath.nodes[i].str();
    out << '\n';
}

} // namespace

int runTeam(const CliContext& context, const RunArgs& args)
{
    auto loaded = loadTeamFile(args.team);
    if (!loaded.team) {
        for (const auto& p : loaded.problems) {
            if (p.isError())
                context.err << formatProblem(p, args.team) << '\n';
        }
        return kExitBadInput;
    }
    auto resources = context.engineResources();
    if (!resources)
        return kExitBadInput;
    std::string input = args.input;
    const Task* task = nullptr;
    std::optional<TaskSet> extraTasks;
    if (!args.task.empty()) {
        if (!args.taskset.empty()) {
            auto set = TaskSet::load(args.taskset);
            if (!set.tasks) {
                for (const auto& p : set.problems)
                    context.err << formatProblem(p, args.taskset) << '\n';
                return kExitBadInput;
            }
            extraTasks = std::move(*set.tasks);
            auto merged = resources->tasks ? *resources->tasks : TaskSet();
            merged.merge(*extraTasks);
            resources->tasks = std::make_shared<const TaskSet>(std::move(merged));
        }
        task = resources->tasks ? resources->tasks->byId(args.task) : nullptr;
        if (!task) {
            context.err << "conclave: no task with id \"" << args.task << "\""
                        << (args.taskset.empty() ? "" : " in " + args.taskset) << '\n';
            return kExitBadInput;
        }
        input = task->prompt;
    }

    // --time-scale is about the real clock: alone it selects it.
    auto clock = args.timeScale ? ClockRequest::Real : ClockRequest::Auto;
    if (!args.clock.empty())
        clock = clockRequestFromString(args.clock).value_or(ClockRequest::Auto);
    if (args.timeScale && clock == ClockRequest::Virtual) {
        context.err << "run: --time-scale applies to the real clock only; drop it, or use --clock real\n";
        return kExitBadInput;
    }
    if (args.timeScale) {
        for (auto& [name, backend] : loaded.team->backends) {
            if (backend.kind == BackendKind::LocalMoe)
                backend.timeScale = *args.timeScale;
        }
    }
    RunRequest request{*loaded.team,
                       std::move(input),
                       args.seed,
                       args.json,
                       task,
                       args.db,
                       args.team,
                       clock,
                       std::filesystem::path(args.team).parent_path()};
    return executeRun(context, std::move(*resources), request);
}

int executeRun(const CliContext& context, EngineResources resources, const RunRequest& request)
{
    const auto& team = request.team;
    const auto& input = request.input;
    const auto* task = request.task;
    auto opened = RunStore::open(RunStore::resolvePath(request.db));
    if (!opened.store) {
        context.err << "conclave: " << opened.error << '\n';
        return kExitBadInput;
    }
    Engine engine(std::move(resources));
    engine.setStore(RunStore::resolvePath(request.db));
    ProgressLine progress;
    const bool showProgress = !request.json && ::isatty(STDERR_FILENO);
    std::vector<RunObserver*> observers;
    if (showProgress)
        observers.push_back(&progress);
    const auto prepared = engine.prepare(team, request.teamFolder);
    if (!prepared.team) {
        context.err << request.label << ": " << prepared.error << '\n';
        return kExitBadInput;
    }
    auto started = startRecorded(engine, opened.store.get(), *prepared.team, input,
                                 Engine::StartOptions{request.seed, observers, request.clock, {}, {}},
                                 RunOrigin{request.source, {}, {}});
    if (!started.run) {
        context.err << (started.storeFailed ? std::string("conclave") : request.label) << ": " << started.error
                    << '\n';
        return kExitBadInput;
    }
    auto& recorder = started.recorder;
    std::string storeError;
    g_interrupted.store(false);
    struct sigaction action {};
    action.sa_handler = onInterrupt;
    sigemptyset(&action.sa_mask);
    struct sigaction previous {};
    sigaction(SIGINT, &action, &previous);
    bool cancelled = false;
    while (!started.run->waitFor(std::chrono::milliseconds(100))) {
        if (g_interrupted.load() && !cancelled) {
            cancelled = true;
            started.run->cancel();
        }
        if (showProgress)
            progress.print(stderr);
    }
    sigaction(SIGINT, &previous, nullptr);
    if (showProgress)
        ProgressLine::clear(stderr);
    const auto result = started.run->wait();
    const auto& runId = recorder->id().str();
    storeError = recorder->waitUntilStored();
    if (!storeError.empty())
        context.err << "conclave: the run was not stored completely: " << storeError << '\n';
    if (request.json) {
        auto j = runResultToJson(result, runId);
        if (task) {
            j["task"] = task->id;
            j["correct"] = ReplyParser::normalizeAnswer(task->answer) == result.output.answer;
        }
        context.out << j.dump(2) << '\n';
    } else {
        printHuman(context.out, result, team, runId);
        if (task) {
            const bool correct = ReplyParser::normalizeAnswer(task->answer) == result.output.answer;
            context.out << "task " << task->id << ": " << (correct ? "correct" : "wrong")
                        << (correct ? "" : " (expected " + ReplyParser::normalizeAnswer(task->answer) + ")") << '\n';
        }
        if (cancelled)
            context.err << "conclave: cancelled; the results above are what had finished\n";
    }
    return result.status == RunStatus::Ok || result.status == RunStatus::Partial ? kExitOk : kExitFailed;
}

} // namespace conclave::cli
