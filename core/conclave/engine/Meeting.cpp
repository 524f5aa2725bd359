#include "conclave/engine/Meeting.h"

#include "conclave/engine/AdaptiveLogic.h"
#include "conclave/engine/CallRunner.h"
#include "conclave/engine/PromptBuilder.h"
#include "conclave/engine/ReplyParser.h"
#include "conclave/engine/RouterLogic.h"
#include "conclave/engine/Run.h"
#include "conclave/model/PromptTemplate.h"
#include "conclave/util/NumberText.h"

#include <algorithm>
#include <cmath>
#include <tuple>

namespace conclave {

namespace {
// A member meeting's result as the outcome of one member's turn.
CallOutcome outcomeOf(NodeResult result)
{
    CallOutcome outcome;
    outcome.status = result.status;
    outcome.text = std::move(result.text);
    outcome.parsed.answer = std::move(result.answer);
    outcome.parsed.confidence = result.confidence;
    outcome.tokensIn = result.tokensIn;
    outcome.tokensOut = result.tokensOut;
    outcome.costUsd = result.costUsd;
    outcome.error = std::move(result.error);
    return outcome;
}

// What asking `node` is expected to spend when each call costs the mean call
// so far: one call of an expert's model; for a member meeting, one call of
// each expert in it (the least any meeting asks).
void addExpectedSpend(const Run& run, size_t node, int64_t meanIn, int64_t meanOut, AdaptiveLogic::NextCall& next)
{
    const auto& pn = run.plan().at(node);
    if (pn.node->kind == NodeKind::Coordinator) {
        for (const size_t member : pn.members)
            addExpectedSpend(run, member, meanIn, meanOut, next);
        return;
    }
    if (!pn.call)
        return;
    next.expectedTokens += meanIn + meanOut;
    if (const auto* backend = run.backend(pn.call->backend))
        next.expectedUsd += backend->costOf(pn.call->model, meanIn, meanOut);
}

// The plan round's note when the reply listed more subtasks than max_subtasks.
std::string droppedNote(size_t maxSubtasks, size_t dropped)
{
    return "max_subtasks " + groupThousands(maxSubtasks) + ": " + groupThousands(dropped) + " further " +
           (dropped == 1 ? "line" : "lines") + " dropped";
}

} // namespace

Meeting::Meeting(std::shared_ptr<Run> run, size_t coordinator, std::string task, SpanId span, Done done)
    : m_run(std::move(run)), m_node(coordinator), m_task(std::move(task)), m_span(span), m_onDone(std::move(done))
{
    const auto& config = m_run->plan().at(m_node).node->config;
    m_maxRounds = static_cast<int>(config.maxRounds.value_or(defaults::kMaxRounds));
}

size_t Meeting::maxSubtasks() const
{
    const auto& pn = m_run->plan().at(m_node);
    return size_t(defaults::maxSubtasks(pn.node->config.maxSubtasks, pn.members.size()));
}

std::string Meeting::memberId(size_t member) const
{
    return m_run->plan().at(member).node->id.str();
}

void Meeting::start()
{
    m_run->assertLocked();
    const auto mode = m_run->plan().at(m_node).node->config.mode.value_or(CoordinatorMode::RoundRobin);
    if (mode == CoordinatorMode::Decompose) {
        m_round = 1;
        m_roundSpan = m_run->openSpan(SpanKind::Round, m_run->plan().at(m_node).node->id, m_span, "plan", m_round);
        CallInputs inputs;
        inputs.task = m_task;
        inputs.maxSubtasks = maxSubtasks();
        callCoordinator(PromptBuilder::decomposeSystem(), PromptBuilder::decomposePrompt(m_task, maxSubtasks()), true,
                        std::move(inputs));
        return;
    }
    if (mode == CoordinatorMode::Cascade)
        m_maxRounds = static_cast<int>(m_run->plan().at(m_node).members.size());
    if (mode == CoordinatorMode::Adaptive)
        m_order = adaptiveOrder();
    startRound();
}

void Meeting::startRound()
{
    const auto& pn = m_run->plan().at(m_node);
    const auto mode = pn.node->config.mode.value_or(CoordinatorMode::RoundRobin);
    ++m_round;
    std::string name = "round " + std::to_string(m_round);
    if (mode == CoordinatorMode::Decompose)
        name = "solve";
    else if (mode == CoordinatorMode::Cascade)
        name = "step " + std::to_string(m_round) + ": " + memberId(pn.members[size_t(m_round - 1)]);
    m_roundSpan = m_run->openSpan(SpanKind::Round, pn.node->id, m_span, name, m_round);
    switch (mode) {
    case CoordinatorMode::RoundRobin:
        m_nextSpeaker = 1;
        callMember(pn.members[0], m_task, transcriptEntries(m_round, true));
        break;
    case CoordinatorMode::Debate: {
        const auto previous = transcriptEntries(m_round, false);
        m_outstanding = pn.members.size();
        for (const size_t member : pn.members)
            callMember(member, m_task, previous);
        break;
    }
    case CoordinatorMode::Adaptive: {
        // MOSAIC's loop asks the next most useful expert, one at a time: each
        // round after the first adds the one member the gate ranks next.
        const auto initial = size_t(std::max<int64_t>(1, pn.node->config.initial.value_or(defaults::kInitialMembers)));
        const size_t count = m_round == 1 ? std::min(initial, m_order.size()) : 1;
        const auto previous = transcriptEntries(m_round, false);
        m_outstanding = count;
        for (size_t k = 0; k < count; ++k)
            callMember(m_order[m_asked++], m_task, previous);
        break;
    }
    case CoordinatorMode::Cascade:
        callMember(pn.members[size_t(m_round - 1)], m_task, {});
        break;
    case CoordinatorMode::Decompose:
        m_outstanding = m_subtasks.size();
        for (size_t i = 0; i < m_subtasks.size(); ++i)
            callMember(pn.members[i % pn.members.size()], m_subtasks[i], {}, i);
        break;
    }
}

void Meeting::callMember(size_t member, std::string task, std::vector<Candidate> shown, size_t part)
{
    const auto& pn = m_run->plan().at(member);
    const SpanId span = m_run->openSpan(SpanKind::Node, pn.node->id, m_roundSpan, pn.node->displayName(), m_round);
    m_run->nodeStartedMember(member);
    if (pn.node->kind == NodeKind::Coordinator) {
        holdMemberMeeting(member, span, std::move(task), part);
        return;
    }
    const auto& settings = *pn.call;
    // An adaptive meeting's members answer alone: the agreement its stop rule
    // trusts is between independent answers. Each answers once, so its call
    // is told apart as a first round's is, and draws what the same member
    // would draw in the first round of a debate (common random numbers).
    const bool adaptive = m_run->plan().at(m_node).node->config.mode == CoordinatorMode::Adaptive;
    std::string tmpl = settings.prompt.value_or(shown.empty() || adaptive ? "{{task}}"
                                                                          : "{{task}}\n\nThe discussion so far:\n"
                                                                            "{{transcript}}");
    const int drawRound = adaptive ? 1 : m_round;
    // The member is shown the turns only when its prompt has them.
    const auto names = PromptTemplate::names(tmpl);
    const bool showsTranscript = std::find(names.begin(), names.end(), "transcript") != names.end();
    auto prompt = m_run->renderPrompt(member, tmpl, task, transcriptText(shown), m_round);
    CallInputs inputs;
    inputs.task = task;
    if (showsTranscript)
        inputs.transcript = std::move(shown);
    auto spec = m_run->callSpec(
        member, span, m_round,
        settings.system + (settings.system.empty() ? "" : "\n\n") + std::string(PromptBuilder::answerFormat()),
        std::move(prompt), "#" + std::to_string(drawRound) + "#" + task, CallPurpose::MemberTurn, std::move(inputs));
    auto self = shared_from_this();
    auto runner = std::make_shared<CallRunner>(m_run, std::move(spec), [self, member, span, part](CallOutcome outcome) {
        self->onMemberDone(member, span, part, std::move(outcome));
    });
    m_calls.push_back(runner);
    m_run->post([runner] { runner->start(); });
}

void Meeting::holdMemberMeeting(size_t member, SpanId span, std::string task, size_t part)
{
    auto self = shared_from_this();
    auto child = std::make_shared<Meeting>(m_run, member, std::move(task), span,
                                           [self, member, span, part](NodeResult result) {
                                               self->onMemberDone(member, span, part, outcomeOf(std::move(result)));
                                           });
    m_children.push_back(child);
    child->start();
}

void Meeting::onMemberDone(size_t member, SpanId span, size_t part, CallOutcome outcome)
{
    m_run->assertLocked();
    m_usage.tokensIn += outcome.tokensIn;
    m_usage.tokensOut += outcome.tokensOut;
    m_usage.costUsd += outcome.costUsd;
    const auto child = std::find_if(m_children.begin(), m_children.end(),
                                    [member](const auto& meeting) { return meeting->m_node == member; });
    m_callCount += child == m_children.end() ? 1 : (*child)->m_callCount;
    auto& s = m_run->span(span);
    s.tokensIn = outcome.tokensIn;
    s.tokensOut = outcome.tokensOut;
    s.costUsd = outcome.costUsd;
    m_run->closeSpan(span, outcome.status, outcome.error);
    if (m_done)
        return;

    Turn turn;
    turn.member = member;
    turn.round = m_round;
    turn.part = part;
    turn.result.status = outcome.status;
    turn.result.error = outcome.error;
    turn.result.tokensIn = outcome.tokensIn;
    turn.result.tokensOut = outcome.tokensOut;
    turn.result.costUsd = outcome.costUsd;
    if (outcome.status == Status::Ok) {
        const auto& parsed = outcome.parsed;
        turn.answer = parsed.answer;
        turn.confidence = parsed.confidence;
        turn.result.answer = parsed.answer;
        turn.result.confidence = parsed.confidence;
        turn.result.text = std::move(outcome.text);
    }
    m_turns.push_back(turn);

    const auto& pn = m_run->plan().at(m_node);
    const auto mode = pn.node->config.mode.value_or(CoordinatorMode::RoundRobin);
    switch (mode) {
    case CoordinatorMode::RoundRobin:
        if (endIfCancelled())
            return;
        if (m_nextSpeaker < pn.members.size()) {
            const size_t next = pn.members[m_nextSpeaker++];
            callMember(next, m_task, transcriptEntries(m_round, true));
            return;
        }
        roundFinished();
        return;
    case CoordinatorMode::Debate:
    case CoordinatorMode::Adaptive:
    case CoordinatorMode::Decompose:
        if (--m_outstanding == 0)
            roundFinished();
        return;
    case CoordinatorMode::Cascade: {
        if (endIfCancelled())
            return;
        const double threshold = pn.node->config.threshold.value_or(defaults::kThreshold);
        bool sure = turn.result.ok() && turn.confidence >= threshold;
        std::vector<const Turn*> earlier;
        for (size_t t = 0; t + 1 < m_turns.size(); ++t)
            earlier.push_back(&m_turns[t]);
        if (const auto score = scoreOf(m_turns.back(), earlier, m_round - 1)) {
            sure = *score >= threshold;
            // The note is set before the span closes, so every observer (the run store) sees it.
            const std::string compared = "score " + fixedDigits(*score, 2) + (sure ? " \u2265 " : " < ") +
                                         fixedDigits(threshold, 2) + ": ";
            m_run->span(m_roundSpan).note =
                compared + (sure ? "stop" : m_round >= m_maxRounds ? "no member left" : "escalate");
        }
        if (sure || m_round >= m_maxRounds) {
            m_run->closeSpan(m_roundSpan, Status::Ok);
            // The last step answers; if it failed, the best earlier answer stands.
            const Turn* best = turn.result.ok() ? &m_turns.back() : nullptr;
            for (const auto& t : m_turns) {
                if (!best && t.result.ok())
                    best = &t;
            }
            conclude(best ? best->result : turn.result);
            return;
        }
        m_run->closeSpan(m_roundSpan, Status::Ok);
        startRound();
        return;
    }
    }
}

void Meeting::roundFinished()
{
    const auto& pn = m_run->plan().at(m_node);
    const auto mode = pn.node->config.mode.value_or(CoordinatorMode::RoundRobin);
    if (endIfCancelled())
        return;
    if (mode == CoordinatorMode::Adaptive) {
        adaptiveRoundFinished();
        return;
    }
    m_run->closeSpan(m_roundSpan, Status::Ok);
    if (mode == CoordinatorMode::Decompose) {
        // Parts in subtask order, whatever order they finished in.
        auto turns = m_turns;
        std::stable_sort(turns.begin(), turns.end(), [](const Turn& a, const Turn& b) { return a.part < b.part; });
        std::vector<Candidate> parts;
        CallInputs inputs;
        inputs.task = m_task;
        for (const auto& t : turns) {
            parts.push_back({memberId(t.member), t.result.ok() ? t.answer : "unknown", t.confidence, t.result.text});
            inputs.candidates.push_back({parts.back().source, parts.back().answer, t.confidence, {}});
        }
        ++m_round;
        m_roundSpan = m_run->openSpan(SpanKind::Round, pn.node->id, m_span, "combine", m_round);
        callCoordinator(PromptBuilder::combineSystem(), PromptBuilder::combinePrompt(m_task, parts), false,
                        std::move(inputs));
        return;
    }
    if (!consensusReached() && m_round < m_maxRounds) {
        startRound();
        return;
    }
    // Votes in member order, so a tie never depends on which reply came first.
    std::vector<Vote> votes;
    for (const size_t member : pn.members) {
        for (const auto& t : m_turns) {
            if (t.round == m_round && t.member == member)
                votes.push_back({memberId(t.member), t.result, 1});
        }
    }
    auto result = AggregatorLogic::conclude({AggregatorStrategy::Majority, {}, {}}, votes);
    if (result.ok())
        result.text = transcript(m_round, true) + "\nAnswer: " + result.answer;
    conclude(std::move(result));
}

bool Meeting::endIfCancelled()
{
    if (!m_run->cancelled())
        return false;
    // The run's cancel() stops the calls before it reaches the meeting: ask nobody else.
    m_run->closeSpan(m_roundSpan, Status::Cancelled, "the run was cancelled");
    NodeResult cancelled;
    cancelled.status = Status::Cancelled;
    cancelled.error = "the run was cancelled";
    conclude(std::move(cancelled));
    return true;
}

std::vector<size_t> Meeting::adaptiveOrder() const
{
    const auto& members = m_run->plan().at(m_node).members;
    const auto scores = m_run->nodeGateScores(m_task, members);
    std::vector<size_t> order;
    if (scores.size() != members.size()) {
        order = members; // no gate: edge order
        return order;
    }
    for (const size_t k : RouterLogic::ranked(scores))
        order.push_back(members[k]);
    return order;
}

void Meeting::adaptiveRoundFinished()
{
    const auto& pn = m_run->plan().at(m_node);
    const auto& config = pn.node->config;
    // Every member asked so far, in edge order: each has answered once.
    std::vector<Vote> votes;
    for (const size_t member : pn.members) {
        for (const auto& t : m_turns) {
            if (t.member == member)
                votes.push_back({memberId(t.member), t.result, 1});
        }
    }
    auto standing = AdaptiveLogic::stand(votes);
    if (m_run->scorer(pn.node->id) && standing.result.ok()) {
        // The leading answer's score: the best of its members', each scored
        // with the answers of the members asked before it.
        std::vector<const Turn*> asked;
        for (size_t k = 0; k < m_asked; ++k) {
            for (const auto& t : m_turns) {
                if (t.member == m_order[k])
                    asked.push_back(&t);
            }
        }
        for (size_t k = 0; k < asked.size(); ++k) {
            if (!asked[k]->result.ok() || asked[k]->answer != standing.result.answer)
                continue;
            const std::vector<const Turn*> earlier(asked.begin(), asked.begin() + std::ptrdiff_t(k));
            if (const auto score = scoreOf(*asked[k], earlier, int(k)))
                standing.score = std::max(standing.score.value_or(0.0), *score);
        }
    }

    AdaptiveLogic::NextCall next;
    if (m_asked < m_order.size()) {
        const size_t member = m_order[m_asked];
        next.member = memberId(member);
        const double calls = double(std::max<int>(m_callCount, 1));
        const auto meanIn = int64_t(std::llround(double(m_usage.tokensIn) / calls));
        const auto meanOut = int64_t(std::llround(double(m_usage.tokensOut) / calls));
        addExpectedSpend(*m_run, member, meanIn, meanOut, next);
        if (const auto& budget = m_run->plan().team().budget) {
            next.maxCostUsd = budget->maxCostUsd;
            next.maxTokens = budget->maxTokens;
        }
        next.spentUsd = m_run->m_costUsd;
        next.spentTokens = m_run->m_tokensIn + m_run->m_tokensOut;
        if (const auto error = m_run->budgetCheck())
            next.exhausted = *error;
    }
    const AdaptiveLogic::Rules rules{config.consensus.value_or(defaults::kConsensus),
                                     config.threshold.value_or(defaults::kThreshold), m_maxRounds};
    const auto decision = AdaptiveLogic::decide(rules, standing, m_round, next);
    // The note is set before the span closes, so every observer (the run store) sees it.
    m_run->span(m_roundSpan).note = decision.note;
    m_run->closeSpan(m_roundSpan, Status::Ok);
    if (!decision.stop) {
        startRound();
        return;
    }
    auto result = standing.result;
    if (result.ok())
        result.text = transcript(m_round, true) + "\nAnswer: " + result.answer;
    conclude(std::move(result));
}

void Meeting::callCoordinator(std::string system, std::string prompt, bool planning, CallInputs inputs)
{
    const auto& pn = m_run->plan().at(m_node);
    const auto& settings = *pn.call;
    auto spec = m_run->callSpec(m_node, m_roundSpan, m_round,
                                settings.system.empty() ? system : settings.system + "\n\n" + system, std::move(prompt),
                                (planning ? "#plan#" : "#combine#") + std::to_string(m_round),
                                planning ? CallPurpose::Plan : CallPurpose::Combine, std::move(inputs));
    auto self = shared_from_this();
    auto runner = std::make_shared<CallRunner>(m_run, std::move(spec), [self, planning](CallOutcome outcome) {
        self->onCoordinatorDone(planning, std::move(outcome));
    });
    m_calls.push_back(runner);
    m_run->post([runner] { runner->start(); });
}

void Meeting::onCoordinatorDone(bool planning, CallOutcome outcome)
{
    m_run->assertLocked();
    m_usage.tokensIn += outcome.tokensIn;
    m_usage.tokensOut += outcome.tokensOut;
    m_usage.costUsd += outcome.costUsd;
    ++m_callCount;
    if (m_done)
        return;
    if (planning && outcome.status == Status::Ok) {
        // A plan is capped before anything is called: every subtask kept is a paid member call.
        auto plan = ReplyParser::subtasksUpTo(outcome.text, maxSubtasks());
        m_subtasks = std::move(plan.subtasks);
        if (plan.dropped > 0)
            m_run->span(m_roundSpan).note = droppedNote(maxSubtasks(), plan.dropped);
    }
    // The note is set before the span closes, so every observer (the run store) sees it.
    m_run->closeSpan(m_roundSpan, outcome.status, outcome.error);
    if (outcome.status != Status::Ok) {
        NodeResult failed;
        failed.status = outcome.status;
        failed.error = outcome.error;
        conclude(std::move(failed));
        return;
    }
    if (planning) {
        if (m_subtasks.empty())
            m_subtasks.push_back(m_task);
        startRound();
        return;
    }
    const auto parsed = std::move(outcome.parsed);
    NodeResult result;
    result.status = Status::Ok;
    result.text = std::move(outcome.text);
    result.answer = parsed.answer;
    result.confidence = parsed.confidence;
    conclude(std::move(result));
}

bool Meeting::consensusReached() const
{
    const auto& pn = m_run->plan().at(m_node);
    std::vector<Vote> votes;
    for (const auto& t : m_turns) {
        if (t.round == m_round)
            votes.push_back({memberId(t.member), t.result, 1});
    }
    const auto tally = AggregatorLogic::tally(votes, false);
    if (tally.empty())
        return false;
    const double share = double(tally.front().count) / double(pn.members.size());
    return share + 1e-9 >= pn.node->config.consensus.value_or(defaults::kConsensus);
}

std::vector<Candidate> Meeting::transcriptEntries(int uptoRound, bool includeCurrent) const
{
    // Members in edge order within a round, not in the order their replies came
    // back, so the prompts (and a seeded run) never depend on thread timing.
    const auto& members = m_run->plan().at(m_node).members;
    const auto seat = [&](size_t member) {
        return size_t(std::find(members.begin(), members.end(), member) - members.begin());
    };
    std::vector<const Turn*> turns;
    for (const auto& t : m_turns) {
        if ((t.round < uptoRound || (includeCurrent && t.round == uptoRound)) && t.result.ok())
            turns.push_back(&t);
    }
    std::stable_sort(turns.begin(), turns.end(), [&](const Turn* a, const Turn* b) {
        if (a->round != b->round)
            return a->round < b->round;
        return seat(a->member) < seat(b->member);
    });
    std::vector<Candidate> out;
    out.reserve(turns.size());
    for (const Turn* t : turns)
        out.push_back({memberId(t->member), t->answer, t->confidence, {}, t->round});
    return out;
}

std::string Meeting::transcript(int uptoRound, bool includeCurrent) const
{
    return transcriptText(transcriptEntries(uptoRound, includeCurrent));
}

std::string Meeting::transcriptText(const std::vector<Candidate>& entries)
{
    std::string out;
    for (const auto& e : entries)
        out += PromptBuilder::transcriptLine(e.source, e.round, e.answer, e.confidence);
    return out;
}

void Meeting::conclude(NodeResult result)
{
    if (m_done)
        return;
    m_done = true;
    result.tokensIn = m_usage.tokensIn;
    result.tokensOut = m_usage.tokensOut;
    result.costUsd = m_usage.costUsd;
    const auto& pn = m_run->plan().at(m_node);
    for (const size_t member : pn.members) {
        // A member's result is its last turn in meeting order (round, then
        // subtask), not the last reply to arrive: a decompose member solving
        // two subtasks in parallel must not end with whichever came back last.
        const Turn* last = nullptr;
        for (const auto& t : m_turns) {
            if (t.member == member && (!last || std::tie(t.round, t.part) >= std::tie(last->round, last->part)))
                last = &t;
        }
        NodeResult r;
        if (last)
            r = last->result;
        else
            r.status = Status::Skipped;
        m_run->settle(member, std::move(r));
    }
    if (m_onDone) {
        // A member meeting: the meeting it belongs to settles its coordinator.
        auto done = std::move(m_onDone);
        m_onDone = {};
        done(std::move(result));
        return;
    }
    m_run->settle(m_node, std::move(result));
}

void Meeting::cancel(Status status, const std::string& why)
{
    m_run->assertLocked();
    if (m_done)
        return;
    m_done = true;
    auto calls = m_calls;
    for (auto& call : calls)
        call->cancel(status, why);
    auto children = m_children;
    for (auto& child : children)
        child->cancel(status, why);
    if (m_roundSpan && m_run->span(m_roundSpan).endUs < 0)
        m_run->closeSpan(m_roundSpan, status, why);
    m_done = false;
    NodeResult r;
    r.status = status;
    r.error = why;
    conclude(std::move(r));
}

} // namespace conclave
