#include "conclave/engine/Run.h"

#include "conclave/engine/AggregatorLogic.h"
#include "conclave/engine/CallRunner.h"
#include "conclave/engine/Meeting.h"
#include "conclave/engine/PromptBuilder.h"
#include "conclave/engine/ReplyParser.h"
#include "conclave/engine/RouterLogic.h"
#include "conclave/engine/RunLaunch.h"

#include <algorithm>
#include <unordered_set>

namespace conclave {

Run::Run(std::shared_ptr<const RunPlan> plan, RunOptions options,
         std::map<BackendName, std::shared_ptr<ModelBackend>> backends, GateScorer gate,
         std::shared_ptr<RunClock> clock)
    : m_plan(std::move(plan)), m_options(std::move(options)), m_backends(std::move(backends)), m_gate(std::move(gate)),
      m_clock(std::move(clock)), m_timeScale(m_clock->scale(m_plan->timeScale()))
{
    m_state.resize(m_plan->size());
    // Most nodes make one node span and one attempt span; growing a vector of
    // 20,000 spans while the run is hot would copy them all several times.
    m_spans.reserve(m_plan->size() * 2 + 64);
    m_calls.reserve(m_plan->size());
    m_routesTaken.assign(m_plan->team().edges.size(), 0);
    m_remaining = m_plan->size();
}

Run::~Run() = default;

int64_t Run::nowUs() const
{
    return m_clock->nowUs() - m_startUs;
}

int64_t Run::after(double teamMs) const
{
    return m_clock->after(teamMs, m_plan->timeScale());
}

ModelBackend* Run::backend(const BackendName& name) const
{
    const auto it = m_backends.find(name);
    return it == m_backends.end() ? nullptr : it->second.get();
}

const AnswerScore* Run::scorer(const NodeId& coordinator) const
{
    const auto it = m_options.scorers.find(coordinator);
    return it == m_options.scorers.end() ? nullptr : it->second.get();
}

std::vector<double> Run::gateScores(std::string_view text, const std::vector<std::string>& models) const
{
    return m_gate ? m_gate(text, models) : std::vector<double>{};
}

std::vector<double> Run::nodeGateScores(std::string_view text, const std::vector<size_t>& nodes) const
{
    std::vector<std::string> models;
    std::vector<size_t> owner;
    // A valid team has no membership cycle, so the walk ends.
    const std::function<void(size_t, size_t)> add = [&](size_t node, size_t k) {
        const auto& pn = m_plan->at(node);
        if (pn.node->kind == NodeKind::Coordinator) {
            for (const size_t member : pn.members)
                add(member, k);
            return;
        }
        models.push_back(pn.call ? pn.call->model : std::string());
        owner.push_back(k);
    };
    for (size_t k = 0; k < nodes.size(); ++k)
        add(nodes[k], k);
    const auto modelScores = gateScores(text, models);
    if (modelScores.size() != models.size())
        return {};
    std::vector<double> scores(nodes.size(), 0.0);
    for (size_t m = 0; m < models.size(); ++m)
        scores[owner[m]] = std::max(scores[owner[m]], modelScores[m]);
    return scores;
}

void Run::start()
{
    auto self = shared_from_this();
    RunClock::Hold hold(*m_clock); // the first events happen here, not on the pool
    auto lock = this->lock();
    m_startUs = m_clock->nowUs();
    m_started = true;
    m_clock->setStallHandler([weak = weak_from_this()] {
        if (const auto run = weak.lock())
            run->onStalled();
    });
    notifyObservers([&](RunObserver& o) { o.runStarted(m_options.input, m_options.seed, m_clock->kind()); });
    for (size_t i = 0; i < m_plan->size(); ++i)
        m_state[i].pending = m_plan->at(i).in.size();
    const auto& budget = m_plan->team().budget;
    if (budget && budget->maxWallMs) {
        m_wallTimer = m_clock->schedule(after(double(*budget->maxWallMs)), [self] {
            auto l = self->lock();
            if (self->m_finished)
                return;
            self->budgetCheck();
            if (self->m_budgetError.empty())
                self->m_budgetError = "budget exhausted: max_wall_ms reached";
            auto calls = self->m_calls;
            for (auto& call : calls)
                call->cancel(Status::BudgetExhausted, self->m_budgetError);
        });
    }
    if (m_options.cancelAfterMs) {
        m_cancelTimer = m_clock->schedule(after(*m_options.cancelAfterMs), [weak = weak_from_this()] {
            if (const auto run = weak.lock())
                run->cancel();
        });
    }
    // Nodes nothing feeds (other than the input and meeting members) can never run.
    for (size_t i = 0; i < m_plan->size(); ++i) {
        const auto& pn = m_plan->at(i);
        if (i != m_plan->inputIndex() && pn.in.empty() && !pn.coordinator)
            settle(i, skippedResult());
    }
    if (!m_finished)
        ready(m_plan->inputIndex());
}

NodeResult Run::skippedResult() const
{
    NodeResult r;
    r.status = Status::Skipped;
    return r;
}

NodeResult Run::memberLeftOver(const NodeResult& coordinator)
{
    NodeResult r;
    const auto status = coordinator.status;
    if (status == Status::Cancelled || status == Status::BudgetExhausted || status == Status::Skipped) {
        r.status = status;
        r.error = coordinator.error;
    } else {
        r.status = Status::Skipped; // the meeting ended without calling it
    }
    return r;
}

void Run::ready(size_t node)
{
    auto& ns = m_state[node];
    if (m_cancelled) {
        NodeResult r;
        r.status = Status::Cancelled;
        r.error = "the run was cancelled";
        settle(node, std::move(r));
        return;
    }
    ns.phase = Phase::Queued;
    const auto at = nowUs();
    notifyObservers([&](RunObserver& o) { o.nodeQueued(m_plan->at(node).node->id, at); });
    m_readyQueue.push_back(node);
    // One drainer per worker at most: a router that readies 10,000 experts
    // posts two tasks, not 10,000.
    if (m_drainers < std::min(m_clock->parallelism(), m_readyQueue.size())) {
        ++m_drainers;
        auto self = shared_from_this();
        post([self] { self->drain(); });
    }
}

void Run::drain()
{
    // Bounded work per task, so one wide run cannot keep a worker from other runs.
    constexpr size_t kBatch = 16;
    constexpr size_t kPerTask = 512;
    std::vector<PendingLaunch> launches;
    auto lock = this->lock();
    for (size_t done = 0; !m_readyQueue.empty() && done < kPerTask;) {
        for (size_t i = 0; i < kBatch && !m_readyQueue.empty(); ++i, ++done) {
            const size_t node = m_readyQueue.front();
            m_readyQueue.pop_front();
            execute(node, lock);
        }
        if (m_launches.empty())
            continue;
        launches.swap(m_launches);
        lock.unlock();
        for (auto& l : launches)
            l.runner->launch(std::move(l.launch));
        launches.clear();
        lock.lock();
    }
    if (!m_readyQueue.empty()) {
        auto self = shared_from_this();
        post([self] { self->drain(); }); // still counted in m_drainers
        return;
    }
    --m_drainers;
}

void Run::nodeStartedMember(size_t member)
{
    auto& ns = m_state[member];
    if (ns.phase == Phase::Waiting) {
        ns.phase = Phase::Running;
        const auto at = nowUs();
        notifyObservers([&](RunObserver& o) { o.nodeQueued(m_plan->at(member).node->id, at); });
    }
}

std::vector<size_t> Run::arrivedInEdgeOrder(size_t node) const
{
    const auto& arrived = m_state[node].arrived;
    std::vector<size_t> order;
    order.reserve(arrived.size());
    if (arrived.size() <= 8) {
        for (const auto& [from, e] : m_plan->at(node).in) {
            if (std::find(arrived.begin(), arrived.end(), from) != arrived.end() &&
                std::find(order.begin(), order.end(), from) == order.end())
                order.push_back(from);
        }
        return order;
    }
    std::unordered_set<size_t> pending(arrived.begin(), arrived.end());
    for (const auto& [from, e] : m_plan->at(node).in) {
        if (pending.erase(from))
            order.push_back(from);
    }
    return order;
}

std::vector<Vote> Run::votesFor(size_t node) const
{
    // `first` is about arrival order; every other strategy sees its inputs in
    // edge order, so its result never depends on thread timing.
    const auto& arrived = m_state[node].arrived;
    const bool first = m_plan->at(node).node->config.aggregatorStrategy == AggregatorStrategy::First;
    const std::vector<size_t> order = first ? arrived : arrivedInEdgeOrder(node);
    std::vector<Vote> votes;
    votes.reserve(order.size());
    for (const size_t from : order) {
        const auto& pn = m_plan->at(from);
        votes.push_back({pn.node->id.str(), m_state[from].result, pn.node->config.weight.value_or(1.0)});
    }
    return votes;
}

std::string Run::inputsText(size_t node) const
{
    // In edge order, not arrival order, so a prompt never depends on thread timing.
    std::vector<Candidate> inputs;
    for (const size_t from : arrivedInEdgeOrder(node)) {
        if (m_state[from].result.ok())
            inputs.push_back({m_plan->at(from).node->id.str(), {}, 0, m_state[from].result.text});
    }
    if (inputs.size() == 1)
        return inputs.front().text;
    return PromptBuilder::labelledInputs(inputs);
}

std::string Run::defaultPrompt(size_t node) const
{
    const auto& in = m_plan->at(node).in;
    const bool fromInputOnly =
        std::all_of(in.begin(), in.end(), [&](const auto& e) {
            const auto kind = m_plan->at(e.first).node->kind;
            return kind == NodeKind::Input || kind == NodeKind::Router;
        });
    return fromInputOnly ? "{{input}}" : "{{input}}\n\n{{inputs}}";
}

std::string Run::renderPrompt(size_t node, const std::string& tmpl, std::string_view task,
                              std::string_view transcript, int round) const
{
    const std::string inputs = inputsText(node);
    TemplateValues values;
    values.input = m_options.input;
    values.inputs = inputs;
    values.task = task;
    values.transcript = transcript;
    values.round = round;
    values.from = [this](std::string_view id) -> std::optional<std::string> {
        const auto index = m_plan->indexOf(NodeId(std::string(id)));
        if (!index || !m_state[*index].result.ok())
            return std::nullopt;
        return m_state[*index].result.text;
    };
    return PromptBuilder::render(tmpl, values);
}

void Run::execute(size_t node, RunLock& lock)
{
    auto& ns = m_state[node];
    if (ns.phase != Phase::Queued)
        return;  // settled meanwhile (cancelled)
    const auto& pn = m_plan->at(node);
    ns.phase = Phase::Running;
    ns.span = openSpan(SpanKind::Node, pn.node->id, 0, pn.node->displayName());
    switch (pn.node->kind) {
    case NodeKind::Input: {
        NodeResult r;
        r.status = Status::Ok;
        r.text = m_options.input;
        r.confidence = 1;
        settle(node, std::move(r));
        return;
    }
    case NodeKind::Output: {
        NodeResult r;
        for (const size_t from : ns.arrived)
            r = m_state[from].result;
        r.tokensIn = r.tokensOut = 0;
        r.costUsd = 0;
        r.skippedModel.clear(); // the answer is passed on; what its node skipped is its own
        r.agreed.clear();
        if (!r.ok()) {
            r.status = Status::Failed;
            if (r.error.empty())
                r.error = "no answer reached the output";
        }
        settle(node, std::move(r));
        return;
    }
    case NodeKind::Router:
        runRouter(node, lock);
        return;
    case NodeKind::Expert:
        runExpert(node, lock);
        return;
    case NodeKind::Aggregator:
        runAggregator(node, lock);
        return;
    case NodeKind::Coordinator: {
        std::string task = inputsText(node);
        auto meeting = std::make_shared<Meeting>(shared_from_this(), node, task.empty() ? m_options.input : task, ns.span);
        ns.meeting = meeting;
        meeting->start();
        return;
    }
    }
}

void Run::cancelNode(size_t node, Status status)
{
    auto& ns = m_state[node];
    if (ns.phase == Phase::Done)
        return;
    const std::string why = status == Status::Cancelled ? "cancelled" : m_budgetError;
    if (ns.meeting) {
        auto meeting = ns.meeting;
        meeting->cancel(status, why);  // settles the node and its members
        return;
    }
    if (ns.call) {
        auto call = ns.call;
        call->cancel(status, why);  // its done callback settles the node
        if (ns.phase == Phase::Done)
            return;
    }
    NodeResult r;
    r.status = status;
    r.error = why;
    settle(node, std::move(r));
}

void Run::settle(size_t node, NodeResult result, int64_t endUs)
{
    assertLocked();
    auto& ns = m_state[node];
    if (ns.phase == Phase::Done)
        return;
    const auto& pn = m_plan->at(node);
    // Members are scheduled by their coordinator alone: when it ends (skipped
    // behind a route not taken, cancelled before its meeting, or done), the
    // members it did not settle itself can never run. Counted here, before
    // the coordinator, so the run cannot end with a member left over.
    for (const size_t member : pn.members) {
        if (m_state[member].phase != Phase::Done)
            settle(member, memberLeftOver(result));
    }
    ns.phase = Phase::Done;
    ns.result = std::move(result);
    if (ns.deadlineTimer) {
        m_clock->cancel(ns.deadlineTimer);
        ns.deadlineTimer = 0;
    }
    ns.call.reset();
    ns.meeting.reset();
    if (ns.span)
        closeSpan(ns.span, ns.result.status, ns.result.error, endUs);
    const auto at = nowUs();
    notifyObservers([&](RunObserver& o) { o.nodeFinished(pn.node->id, ns.result, at); });
    --m_remaining;

    const auto status = ns.result.status;
    for (const auto& [to, e] : pn.out) {
        bool live = status != Status::Skipped && status != Status::Cancelled;
        if (live && pn.node->kind == NodeKind::Router)
            live = status != Status::Ok || m_routesTaken[e];
        if (live && pn.node->kind == NodeKind::Router && status != Status::Ok)
            live = false;  // a router that failed routes nowhere
        deliver(to, node, live);
    }
    if (m_remaining == 0)
        finish();
}

void Run::deliver(size_t to, size_t from, bool live)
{
    auto& ns = m_state[to];
    if (ns.phase != Phase::Waiting)
        return;  // an aggregator that already decided
    --ns.pending;
    if (live)
        ns.arrived.push_back(from);
    const auto kind = m_plan->at(to).node->kind;
    if (live && kind == NodeKind::Aggregator) {
        maybeStartAggregatorEarly(to, from);
        if (ns.phase != Phase::Waiting)
            return;
    }
    if (ns.pending > 0)
        return;
    if (ns.arrived.empty()) {
        if (m_cancelled) {
            NodeResult r;
            r.status = Status::Cancelled;
            r.error = "the run was cancelled";
            settle(to, std::move(r));
        } else {
            settle(to, skippedResult());
        }
        return;
    }
    ready(to);
}

void Run::cancel()
{
    RunClock::Hold hold(*m_clock);
    auto lock = this->lock();
    if (m_finished || m_cancelled)
        return;
    m_cancelled = true;
    auto calls = m_calls;
    for (auto& call : calls)
        call->cancel(Status::Cancelled, "the run was cancelled");
    for (size_t i = 0; i < m_state.size(); ++i)
        cancelNode(i, Status::Cancelled);
}

void Run::finish()
{
    if (m_finished)
        return;
    m_finished = true;
    m_endUs = nowUs();
    if (m_wallTimer)
        m_clock->cancel(m_wallTimer);
    if (m_cancelTimer)
        m_clock->cancel(m_cancelTimer);
    m_clock->setStallHandler({});
    // Every node has settled, so a call still tracked is one nobody waits for
    // (a reply racing an early decision): stop it now, so its attempt span is
    // closed in the result and it cannot report anything after the end.
    auto calls = m_calls;
    for (auto& call : calls)
        call->cancel(Status::Cancelled, "the run had ended");
    const auto& output = m_state[m_plan->outputIndex()].result;
    if (m_cancelled)
        m_status = RunStatus::Cancelled;
    else if (!m_budgetError.empty())
        m_status = RunStatus::BudgetExhausted;
    else if (!output.ok())
        m_status = RunStatus::Failed;
    else {
        const bool anyFailed = std::any_of(m_state.begin(), m_state.end(), [](const NodeState& s) {
            return s.result.status == Status::Failed || s.result.status == Status::Timeout;
        });
        m_status = anyFailed ? RunStatus::Partial : RunStatus::Ok;
    }
    m_cpuUs = m_clock->cpuUs();
    m_final = buildResult();
    notifyObservers([&](RunObserver& o) { o.runFinished(*m_final); });
    m_observersClosed = true;
    m_calls.clear();
    m_done.notify_all();
}

void Run::onStalled()
{
    auto lock = this->lock();
    if (m_finished)
        return;
    // An engine bug, never a team's fault: end the run, saying so, rather than hang.
    const std::string why = "the simulation stalled: no work and no event left, yet this node had not settled";
    for (size_t i = 0; i < m_state.size(); ++i) {
        if (m_state[i].phase == Phase::Done)
            continue;
        if (m_state[i].call) {
            auto call = m_state[i].call;
            call->cancel(Status::Failed, why);
        }
        NodeResult r;
        r.status = Status::Failed;
        r.error = why;
        settle(i, std::move(r));
    }
}

RunResult Run::buildResult() const
{
    RunResult r;
    r.status = m_status;
    r.output = m_state[m_plan->outputIndex()].result;
    for (size_t i = 0; i < m_state.size(); ++i)
        r.results.emplace(m_plan->at(i).node->id, m_state[i].result);
    r.spans = m_spans;
    r.wallUs = m_finished ? m_endUs : nowUs();
    r.tokensIn = m_tokensIn;
    r.tokensOut = m_tokensOut;
    r.costUsd = m_costUsd;
    r.calls = m_callCount;
    r.clock = m_clock->kind();
    r.cpuUs = m_finished ? m_cpuUs : m_clock->cpuUs();
    if (m_finished && m_options.criticalPath)
        r.criticalPath = m_options.criticalPath(m_plan->team(), r.spans);
    return r;
}

bool Run::finished() const
{
    auto lock = this->lock();
    return m_finished;
}

RunResult Run::wait()
{
    auto lock = this->lock();
    m_done.wait(lock, [this] { return m_finished; });
    return *m_final;
}

bool Run::waitFor(std::chrono::milliseconds timeout)
{
    auto lock = this->lock();
    return m_done.wait_for(lock, timeout, [this] { return m_finished; });
}

RunResult Run::snapshot() const
{
    auto lock = this->lock();
    return m_final ? *m_final : buildResult();
}

} // namespace conclave
