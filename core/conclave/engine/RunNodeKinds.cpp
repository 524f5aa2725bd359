// The kind-specific parts of Run: what an expert, a router and an aggregator
// do when their turn comes. Same class and lock discipline as Run.cpp.
#include "conclave/engine/Run.h"

#include "conclave/engine/AggregatorLogic.h"
#include "conclave/engine/CallRunner.h"
#include "conclave/engine/PromptBuilder.h"
#include "conclave/engine/RunLaunch.h"

#include <algorithm>

namespace conclave {

namespace {

// A synthesize that answers from its inputs' agreement. The text is the first
// agreeing input's in edge order, as every vote's conclusion is, so it never
// depends on thread timing; `agreed` keeps the order they arrived in, which
// is what happened. Tokens and cost stay 0: no model was called.
NodeResult agreementResult(const std::vector<Vote>& votes, const AggregatorLogic::Agreement& agreement,
                           const std::vector<std::string>& arrival)
{
    NodeResult r;
    r.status = Status::Ok;
    r.answer = agreement.answer;
    r.text = votes[agreement.votes.front()].result.text;
    r.confidence = agreement.confidence;
    r.skippedModel = "agreement";
    for (const auto& id : arrival) {
        const bool agrees = std::any_of(agreement.votes.begin(), agreement.votes.end(),
                                        [&](size_t i) { return votes[i].source == id; });
        if (agrees)
            r.agreed.push_back(id);
    }
    return r;
}

// 'skipped_model: agreement (a, b agree on "783", 2 of 3 ok inputs)'
std::string agreementNote(const NodeResult& r, size_t okInputs)
{
    std::string names;
    for (const auto& id : r.agreed)
        names += (names.empty() ? "" : ", ") + id;
    return "skipped_model: " + r.skippedModel + " (" + names + " agree on \"" + r.answer + "\", " +
           std::to_string(r.agreed.size()) + " of " + std::to_string(okInputs) + " ok inputs)";
}

} // namespace

void Run::startModelNode(size_t node, std::string system, std::string prompt, std::string_view suffix,
                         CallPurpose purpose, CallInputs inputs, std::function<void(NodeResult, int64_t)> done,
                         RunLock& lock)
{
    auto spec =
        callSpec(node, m_state[node].span, 0, std::move(system), std::move(prompt), suffix, purpose, std::move(inputs));
    auto runner = std::make_shared<CallRunner>(shared_from_this(), std::move(spec),
                                               [done = std::move(done)](CallOutcome outcome) {
                                                   NodeResult r;
                                                   r.status = outcome.status;
                                                   r.error = outcome.error;
                                                   r.tokensIn = outcome.tokensIn;
                                                   r.tokensOut = outcome.tokensOut;
                                                   r.costUsd = outcome.costUsd;
                                                   if (outcome.status == Status::Ok) {
                                                       r.answer = std::move(outcome.parsed.answer);
                                                       r.confidence = outcome.parsed.confidence;
                                                       r.text = std::move(outcome.text);
                                                   }
                                                   done(std::move(r), outcome.endUs);
                                               });
    m_state[node].call = runner;
    // Started by this thread's drain() as soon as it lets go of the lock: no extra hop through the pool.
    auto next = runner->prepareLocked();
    if (next)
        m_launches.push_back({std::move(runner), std::move(next)});
    (void)lock;
}

void Run::runExpert(size_t node, RunLock& lock)
{
    const auto& pn = m_plan->at(node);
    const auto& ns = m_state[node];
    if (!m_budgetError.empty()) {
        NodeResult r;
        r.status = Status::BudgetExhausted;
        r.error = m_budgetError;
        settle(node, std::move(r));
        return;
    }
    const bool anyOk =
        std::any_of(ns.arrived.begin(), ns.arrived.end(), [&](size_t from) { return m_state[from].result.ok(); });
    if (!anyOk) {
        NodeResult r;
        r.status = Status::Failed;
        r.error = "no upstream result to work on";
        settle(node, std::move(r));
        return;
    }
    const auto& settings = *pn.call;
    std::string system = settings.system;
    system += (system.empty() ? "" : "\n\n") + std::string(PromptBuilder::answerFormat());
    auto prompt = renderPrompt(node, settings.prompt.value_or(defaultPrompt(node)));
    CallInputs inputs;
    inputs.task = m_options.input;
    auto self = shared_from_this();
    startModelNode(
        node, std::move(system), std::move(prompt), "", CallPurpose::Answer, std::move(inputs),
        [self, node](NodeResult r, int64_t endUs) { self->settle(node, std::move(r), endUs); }, lock);
}

void Run::runRouter(size_t node, RunLock& lock)
{
    const auto& pn = m_plan->at(node);
    if (!pn.router) {
        NodeResult r;
        r.status = Status::Failed;
        r.error = "no behaviour was prepared for this " + std::string(toString(pn.node->config.routerStrategy.value_or(RouterStrategy::All))) +
                  " router: run the team through the engine (session/), which reads its files";
        settle(node, std::move(r));
        return;
    }
    const auto& edges = m_plan->team().edges;
    auto input = std::make_shared<RouterInput>();
    input->text = inputsText(node);
    std::vector<size_t> targets;
    for (const auto& [to, e] : pn.out) {
        const auto& target = m_plan->at(to);
        RouteCandidate route{e, target.node->id, edges[e].when, std::nullopt};
        if (target.node->kind == NodeKind::Expert && target.call)
            route.model = target.call->model;
        input->routes.push_back(std::move(route));
        targets.push_back(to);
    }
    // A target scores by its model's skills under the gate; a coordinator by its best member.
    // Called by a behaviour under the lock, while the run (and so `this`) is alive.
    input->gateScores = [this, targets = std::move(targets), text = input->text] {
        return nodeGateScores(text, targets);
    };
    const RouterBehaviour& behaviour = *pn.router;
    if (!behaviour.asksModel()) {
        NodeResult result;
        result.status = Status::Ok;
        result.text = input->text;
        result.confidence = 1;
        finishRoute(node, behaviour.decide(*input), std::move(result));
        return;
    }
    auto question = behaviour.question(*input);
    auto self = shared_from_this();
    startModelNode(
        node, std::move(question.system), std::move(question.prompt), "", CallPurpose::Route,
        std::move(question.inputs),
        [self, node, input](NodeResult r, int64_t) {
            RouteDecision decision;
            if (r.ok()) {
                decision = self->m_plan->at(node).router->answer(*input, r.text);
                r.text = input->text;
            }
            self->finishRoute(node, std::move(decision), std::move(r));
        },
        lock);
}

void Run::finishRoute(size_t router, RouteDecision decision, NodeResult result)
{
    for (const size_t e : decision.edges)
        m_routesTaken[e] = 1;
    if (result.ok()) {
        if (decision.answer) {
            result.answer = std::move(*decision.answer);
        } else {
            const auto& edges = m_plan->team().edges;
            std::string answer;
            for (const size_t e : decision.edges)
                answer += (answer.empty() ? "" : ",") + edges[e].when.value_or(edges[e].to.str());
            result.answer = std::move(answer);
        }
    }
    if (!decision.note.empty())
        span(m_state[router].span).note = std::move(decision.note);
    settle(router, std::move(result));
}

void Run::runAggregator(size_t node, RunLock& lock)
{
    const auto& pn = m_plan->at(node);
    const auto& config = pn.node->config;
    auto& ns = m_state[node];
    if (ns.deadlineTimer)
        m_clock->cancel(ns.deadlineTimer);
    cancelStragglers(node);
    const AggregatorLogic::Rules rules{config.aggregatorStrategy.value_or(AggregatorStrategy::Majority), config.quorum,
                                       config.minConfidence};
    const auto votes = votesFor(node);
    auto result = AggregatorLogic::conclude(rules, votes);
    if (rules.strategy != AggregatorStrategy::Synthesize || !result.ok()) {
        settle(node, std::move(result));
        return;
    }
    if (config.skipWhenAgree.value_or(false)) {
        const double fraction = config.agreeFraction.value_or(defaults::kAgreeFraction);
        const auto agreed = AggregatorLogic::agreement(fraction, config.minConfidence, votes);
        if (agreed) {
            std::vector<std::string> arrival;
            for (const size_t from : ns.arrived)
                arrival.push_back(m_plan->at(from).node->id.str());
            auto skipped = agreementResult(votes, *agreed, arrival);
            span(ns.span).note = agreementNote(skipped, agreed->okVotes);
            settle(node, std::move(skipped));
            return;
        }
    }
    std::vector<Candidate> candidates;
    CallInputs inputs;
    inputs.task = m_options.input;
    for (const auto& v : votes) {
        if (!v.result.ok())
            continue;
        candidates.push_back({v.source, v.result.answer, v.result.confidence, v.result.text});
        inputs.candidates.push_back({v.source, v.result.answer, v.result.confidence, {}});
    }
    const auto& settings = *pn.call;
    std::string system = settings.system.empty() ? PromptBuilder::synthesizeSystem() : settings.system;
    system += "\n\n" + std::string(PromptBuilder::answerFormat());
    auto self = shared_from_this();
    startModelNode(
        node, std::move(system), PromptBuilder::synthesizePrompt(m_options.input, candidates), "",
        CallPurpose::Synthesize, std::move(inputs),
        [self, node](NodeResult r, int64_t endUs) { self->settle(node, std::move(r), endUs); }, lock);
}

void Run::maybeStartAggregatorEarly(size_t node, size_t from)
{
    // Incremental, so a join of 10,000 inputs costs O(1) per arrival.
    auto& ns = m_state[node];
    if (ns.phase != Phase::Waiting || ns.pending == 0)
        return;
    const auto& config = m_plan->at(node).node->config;
    const auto& vote = m_state[from].result;
    if (vote.ok()) {
        const auto strategy = config.aggregatorStrategy.value_or(AggregatorStrategy::Majority);
        bool stop = strategy == AggregatorStrategy::First;
        if (config.minConfidence && vote.confidence >= *config.minConfidence)
            stop = true;
        if (config.quorum && ++ns.answerCounts[vote.answer] >= *config.quorum)
            stop = true;
        if (stop) {
            ready(node);
            return;
        }
    }
    if (config.deadlineMs && !ns.deadlineTimer) {
        auto self = shared_from_this();
        ns.deadlineTimer = m_clock->schedule(after(double(*config.deadlineMs)), [self, node] {
            auto lock = self->lock();
            self->onAggregatorDeadline(node);
        });
    }
}

void Run::onAggregatorDeadline(size_t node)
{
    auto& ns = m_state[node];
    ns.deadlineTimer = 0;
    if (ns.phase != Phase::Waiting || m_finished)
        return;
    const auto votes = votesFor(node);
    if (std::any_of(votes.begin(), votes.end(), [](const Vote& v) { return v.result.ok(); }))
        ready(node);
}

void Run::cancelStragglers(size_t aggregator)
{
    // Inputs still running whose every consumer has already decided are no longer needed.
    std::vector<size_t> work;
    for (const auto& [from, e] : m_plan->at(aggregator).in)
        work.push_back(from);
    while (!work.empty()) {
        const size_t i = work.back();
        work.pop_back();
        auto& ns = m_state[i];
        if (ns.phase == Phase::Done)
            continue;
        const auto& out = m_plan->at(i).out;
        const bool needed = std::any_of(out.begin(), out.end(), [&](const auto& edge) {
            const size_t to = edge.first;
            return to != aggregator && m_state[to].phase == Phase::Waiting;
        });
        if (needed)
            continue;
        cancelNode(i, Status::Cancelled);
        for (const auto& [from, e] : m_plan->at(i).in)
            work.push_back(from);
    }
}

} // namespace conclave
