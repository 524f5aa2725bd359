#pragma once

#include "conclave/engine/AnswerScore.h"
#include "conclave/engine/ModelBackend.h"
#include "conclave/engine/RunClock.h"
#include "conclave/engine/RunMutex.h"
#include "conclave/engine/RunObserver.h"
#include "conclave/engine/RunPlan.h"
#include "conclave/engine/RunResult.h"
#include "conclave/model/DefaultValues.h"

#include <atomic>
#include <cassert>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace conclave {

class CallRunner;
class Meeting;

// Scores of models for a prompt under the mixture-of-experts gate: for each
// model, the sum over domains of gate weight x the model's skill.
using GateScorer = std::function<std::vector<double>(std::string_view prompt, const std::vector<std::string>& models)>;

// How a finished run's critical path is found: handed in by the composition
// root (analysis/ is above the engine); without one the path stays empty.
using CriticalPathFinderFn = std::function<CriticalPath(const Team& team, const std::vector<Span>& spans)>;

struct RunOptions {
    std::string input;
    uint64_t seed = defaults::kSeed;
    std::vector<RunObserver*> observers;  // owned by the caller; must outlive the run
    CriticalPathFinderFn criticalPath;
    // Cancels the run this long after it started (team milliseconds, on its
    // clock, scaled as engine delays are), as a Stop pressed at that moment
    // would: a scripted stop, exact on the virtual clock.
    std::optional<double> cancelAfterMs;
    // The case a judge run grades (experiments' judged scoring): its
    // answering calls are judge calls, and every call carries the case.
    std::optional<JudgeCase> judge;
    // Per cascade or adaptive coordinator with a `scorer`: what scores its
    // members' answers in place of their stated confidence.
    std::map<NodeId, std::shared_ptr<const AnswerScore>> scorers;
};

// One execution of a team: the scheduler.
//
// Promises: a node runs as soon as all its inputs have settled (there are no
// global steps); independent branches run at the same time on the pool; a
// join runs exactly once; a node with no live input is skipped; model calls
// never hold a thread while they wait; every event reaches the observers in
// the order it happened, and none after runFinished; every node reaches
// exactly one terminal status, and the run ends as soon as no node can still
// run. All state is guarded by one mutex, and observers are called with it
// held, so they must be quick and must not call back in.
// It never touches the team's editable document, files or any UI.
//
// Time is the run's clock's (RunClock): the real one, or a virtual one that
// makes the run a discrete-event simulation. All the run's CPU work is posted
// through it, and every delay is scheduled on it.
//
// Lock order (a thread holding one may take only those after it):
//   Engine::m_mutex -> Run::m_mutex -> CallRunner::m_idMutex
//     -> a backend's own mutex -> the run's clock -> TimerService -> ThreadPool,
//   and the observers' own locks (the run store's feed) under Run::m_mutex.
// Backends call back (onToken, onDone) holding none of theirs, and clocks,
// the timer service and the pool run callbacks holding none of theirs, so a
// callback may take the run's lock.
class Run : public std::enable_shared_from_this<Run> {
public:
    Run(std::shared_ptr<const RunPlan> plan, RunOptions options,
        std::map<BackendName, std::shared_ptr<ModelBackend>> backends, GateScorer gate,
        std::shared_ptr<RunClock> clock);
    ~Run();

    void start();
    // Stops every call in flight (within milliseconds) and ends the run as cancelled.
    void cancel();
    bool finished() const;
    // Blocks until the run ends and returns its result.
    RunResult wait();
    bool waitFor(std::chrono::milliseconds timeout);
    const RunPlan& plan() const { return *m_plan; }
    // The result so far (complete once finished()).
    RunResult snapshot() const;

    // ---- for CallRunner and Meeting: each expects the lock held unless it says otherwise ----
    RunLock lock() const { return RunLock(m_mutex); }
    void assertLocked() const { m_mutex.assertHeld(); }
    // Run time: microseconds of the run's clock since the run started.
    int64_t nowUs() const;
    RunClock& clock() { return *m_clock; }
    // Runs `task` as the run's CPU work (on its clock).
    void post(std::function<void()> task) { m_clock->post(std::move(task)); }
    // The factor engine delays are scaled by: the plan's time_scale on the
    // real clock, 1 on a virtual one.
    double timeScale() const { return m_timeScale; }
    const std::string& input() const { return m_options.input; }
    uint64_t seed() const { return m_options.seed; }
    ModelBackend* backend(const BackendName& name) const;
    // The mixture-of-experts gate's score of each model for `text` (a moe_gate
    // router's targets, an adaptive meeting's members); empty when the run has
    // no gate (no local backend and no openai models_file), and then nothing is preferred.
    std::vector<double> gateScores(std::string_view text, const std::vector<std::string>& models) const;
    // The gate's score of each node: an expert's is its model's, a
    // coordinator's its best member's (a member meeting's, its best member's);
    // empty when the run has no gate.
    std::vector<double> nodeGateScores(std::string_view text, const std::vector<size_t>& nodes) const;
    // The coordinator's answer scorer, or null when it has none (stated confidence decides).
    const AnswerScore* scorer(const NodeId& coordinator) const;
    bool cancelled() const { return m_cancelled; }
    bool finishedLocked() const { return m_finished; }
    // Returns an error when a budget forbids another call (and records that it ran out).
    std::optional<std::string> budgetCheck();
    void addUsage(int64_t tokensIn, int64_t tokensOut, double costUsd);
    // Clock time for an engine delay given in team milliseconds (scaled by time_scale).
    int64_t after(double teamMs) const;

    SpanId openSpan(SpanKind kind, const NodeId& node, SpanId parent, std::string name, int round = 0,
                    int attempt = 0, std::string model = {});
    Span& span(SpanId id)
    {
        assertLocked();
        assert(id >= 1 && id <= m_spans.size() && "span id out of range");
        return m_spans[id - 1];
    }
    // endUs: when it really ended, if that was before now (-1: now).
    void closeSpan(SpanId id, Status status, std::string error = {}, int64_t endUs = -1);
    void emitToken(const NodeId& node, SpanId span, std::string_view text);
    // An ok attempt's whole reply, told once before its span closes.
    void emitReply(const NodeId& node, SpanId span, std::string_view text);

    // A call for a node's model with its settings applied: backend, model,
    // params, timeout, retries and fallback from the team, the rest given.
    // `suffix` tells the node's calls apart ("#2#subtask"): the request's salt
    // is the node's id and its draw the node's draw role, each with the suffix.
    // In a judge run an answer or a member's turn is a judge call, and every
    // call's inputs carry the judge case.
    struct CallSpec callSpec(size_t node, SpanId parent, int round, std::string system, std::string prompt,
                             std::string_view suffix, CallPurpose purpose, CallInputs inputs) const;

    void trackCall(const std::shared_ptr<CallRunner>& call);
    void untrackCall(const CallRunner* call);

    // A node (or a coordinator's member) has its result.
    // Every terminal status is decided here: it also settles what can no
    // longer run because of it (a coordinator's members that never spoke).
    void settle(size_t node, NodeResult result, int64_t endUs = -1);
    void nodeStartedMember(size_t member);

private:
    enum class Phase { Waiting, Queued, Running, Done };
    struct NodeState {
        Phase phase = Phase::Waiting;
        size_t pending = 0;              // ordinary inputs not yet settled
        std::vector<size_t> arrived;     // live inputs, in arrival order
        std::unordered_map<std::string, int64_t> answerCounts;  // an aggregator's ok votes per answer
        NodeResult result;
        SpanId span = 0;
        TimerId deadlineTimer = 0;
        std::shared_ptr<CallRunner> call;
        std::shared_ptr<Meeting> meeting;
    };

    void ready(size_t node);
    // Runs queued nodes: their bookkeeping in batches under one hold of the
    // lock, their model calls started after it is released.
    void drain();
    void execute(size_t node, RunLock& lock);
    void runRouter(size_t node, RunLock& lock);
    void runExpert(size_t node, RunLock& lock);
    void runAggregator(size_t node, RunLock& lock);
    void maybeStartAggregatorEarly(size_t node, size_t from);
    void onAggregatorDeadline(size_t node);
    void cancelStragglers(size_t aggregator);
    void deliver(size_t to, size_t from, bool live);
    // Fires the chosen edges, notes the span and settles the router; an ok result takes the decision's answer.
    void finishRoute(size_t router, RouteDecision decision, NodeResult result);
    void cancelNode(size_t node, Status status);
    void finish();
    // The virtual clock found nothing left to happen while the run was still going.
    void onStalled();
    NodeResult skippedResult() const;
    // What a member its coordinator never settled ends as, given how the coordinator ended.
    static NodeResult memberLeftOver(const NodeResult& coordinator);
    std::vector<struct Vote> votesFor(size_t node) const;
    std::vector<size_t> arrivedInEdgeOrder(size_t node) const;
    std::string inputsText(size_t node) const;
    std::string defaultPrompt(size_t node) const;
    std::string renderPrompt(size_t node, const std::string& tmpl, std::string_view task = {},
                             std::string_view transcript = {}, int round = 0) const;
    // Prepares the node's model call; drain() starts it once the lock is released.
    void startModelNode(size_t node, std::string system, std::string prompt, std::string_view suffix,
                        CallPurpose purpose, CallInputs inputs, std::function<void(NodeResult, int64_t endUs)> done,
                        RunLock& lock);
    // The one way events reach observers: none after runFinished, whatever a
    // late backend reply or timer does.
    template <typename Event>
    void notifyObservers(const Event& event) const
    {
        assertLocked();
        if (m_observersClosed)
            return;
        for (auto* observer : m_options.observers)
            event(*observer);
    }
    RunResult buildResult() const;

    friend class Meeting;

    std::shared_ptr<const RunPlan> m_plan;
    RunOptions m_options;
    std::map<BackendName, std::shared_ptr<ModelBackend>> m_backends;
    GateScorer m_gate;
    std::shared_ptr<RunClock> m_clock;
    double m_timeScale = 1;

    mutable RunMutex m_mutex; // guards everything below
    std::condition_variable_any m_done;
    int64_t m_startUs = 0; // the clock's time when the run started
    std::vector<NodeState> m_state;
    std::vector<Span> m_spans;
    std::vector<size_t> m_routesTaken;  // per edge: 1 when a router fired it
    std::vector<std::shared_ptr<CallRunner>> m_calls;  // in flight; each knows its slot
    std::deque<size_t> m_readyQueue;                    // queued nodes not yet executed
    size_t m_drainers = 0;                              // drain() tasks posted or running
    struct PendingLaunch;
    std::vector<PendingLaunch> m_launches;              // prepared calls to start outside the lock
    size_t m_remaining = 0;
    bool m_started = false;
    bool m_finished = false;
    bool m_observersClosed = false; // runFinished was sent
    bool m_cancelled = false;
    std::string m_budgetError;
    TimerId m_wallTimer = 0;
    TimerId m_cancelTimer = 0;
    int64_t m_tokensIn = 0;
    int64_t m_tokensOut = 0;
    double m_costUsd = 0;
    int m_callCount = 0;
    int64_t m_endUs = 0;
    int64_t m_cpuUs = 0; // when it ended
    RunStatus m_status = RunStatus::Running;
    std::optional<RunResult> m_final;  // built once when the run ends
};

} // namespace conclave
