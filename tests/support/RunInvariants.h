#pragma once
// What every run must satisfy, whatever its team: checked on generated teams
// by tst_generatedteams and usable by any engine suite. Each check returns the
// broken invariants as sentences (empty when the run is sound).

#include "conclave/engine/CallRunner.h"
#include "conclave/engine/RunObserver.h"
#include "conclave/engine/RunPlan.h"
#include "conclave/local/LocalResponder.h"
#include "conclave/model/DefaultValues.h"
#include "conclave/store/StoredRun.h"
#include "conclave/util/NumberText.h"

#include <algorithm>
#include <cstdio>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace invariants {

using namespace conclave;

// Records what the observers of one run were told, and anything told after the end.
class EventLog : public RunObserver {
public:
    void runStarted(std::string_view, uint64_t, ClockKind) override { event("runStarted"); }
    void nodeQueued(const NodeId&, int64_t) override { event("nodeQueued"); }
    void spanStarted(const Span& span) override
    {
        event("spanStarted");
        std::lock_guard lock(m_mutex);
        ++m_spansStarted[span.node.str()];
    }
    void nodeToken(const NodeId&, SpanId, std::string_view, int64_t) override { event("nodeToken"); }
    void spanFinished(const Span&) override { event("spanFinished"); }
    void nodeFinished(const NodeId& node, const NodeResult&, int64_t) override
    {
        event("nodeFinished");
        std::lock_guard lock(m_mutex);
        ++m_nodeFinished[node.str()];
    }
    void runFinished(const RunResult&) override
    {
        event("runFinished");
        std::lock_guard lock(m_mutex);
        ++m_runsFinished;
    }

    int runsFinished() const
    {
        std::lock_guard lock(m_mutex);
        return m_runsFinished;
    }
    std::vector<std::string> afterEnd() const
    {
        std::lock_guard lock(m_mutex);
        return m_afterEnd;
    }
    std::map<std::string, int> nodeFinished() const
    {
        std::lock_guard lock(m_mutex);
        return m_nodeFinished;
    }

private:
    void event(const char* name)
    {
        std::lock_guard lock(m_mutex);
        if (m_runsFinished > 0)
            m_afterEnd.push_back(name);
    }

    mutable std::mutex m_mutex;
    int m_runsFinished = 0;
    std::vector<std::string> m_afterEnd;
    std::map<std::string, int> m_nodeFinished;
    std::map<std::string, int> m_spansStarted;
};

inline bool isTerminal(Status s)
{
    return s == Status::Ok || s == Status::Failed || s == Status::Timeout || s == Status::Cancelled ||
           s == Status::Skipped || s == Status::BudgetExhausted;
}

// How many node spans `node` has, at any depth.
inline int spansOfNode(const RunResult& r, const NodeId& node)
{
    return int(std::count_if(r.spans.begin(), r.spans.end(),
                             [&](const Span& s) { return s.node == node && s.kind == SpanKind::Node; }));
}

// Nodes, spans, statuses and what the observers saw.
inline std::vector<std::string> check(const RunPlan& plan, const RunResult& r, const EventLog& log)
{
    std::vector<std::string> broken;
    const auto say = [&](std::string s) { broken.push_back(std::move(s)); };
    if (log.runsFinished() != 1)
        say("runFinished reached the observers " + std::to_string(log.runsFinished()) + " times");
    for (const auto& e : log.afterEnd())
        say("the observers were told " + e + " after runFinished");
    if (r.status == RunStatus::Running)
        say("the run ended as running");

    const auto finished = log.nodeFinished();
    for (const auto& pn : plan.nodes()) {
        const auto& id = pn.node->id.str();
        const auto it = r.results.find(pn.node->id);
        if (it == r.results.end() || !isTerminal(it->second.status))
            say("node " + id + " has no terminal status (" +
                (it == r.results.end() ? std::string("missing") : std::string(toString(it->second.status))) + ")");
        else if (it->second.error.find("the simulation stalled") != std::string::npos)
            say("node " + id + ": " + it->second.error); // the virtual clock found the run could never end
        const auto f = finished.find(id);
        const int times = f == finished.end() ? 0 : f->second;
        if (times != 1)
            say("node " + id + " finished " + std::to_string(times) + " times");
    }

    // Spans: closed, inside their parents, one node span per execution, attempts from 1.
    std::map<std::string, int> topLevel;
    std::map<SpanId, std::vector<const Span*>> attemptsUnder;
    for (const auto& s : r.spans) {
        const std::string where = "span " + std::to_string(s.id) + " (" + s.node.str() + " " + s.name + ")";
        if (s.endUs < 0 || !isTerminal(s.status))
            say(where + " never ended");
        else if (s.endUs < s.startUs)
            say(where + " ends before it starts");
        if (s.parent > 0) {
            if (s.parent >= s.id) {
                say(where + " has parent " + std::to_string(s.parent) + " that is not earlier");
                continue;
            }
            const auto& p = r.spans[s.parent - 1];
            if (s.startUs < p.startUs || (p.endUs >= 0 && s.endUs > p.endUs))
                say(where + " [" + std::to_string(s.startUs) + ", " + std::to_string(s.endUs) +
                    "] lies outside its parent " + p.name + " [" + std::to_string(p.startUs) + ", " +
                    std::to_string(p.endUs) + "]");
        }
        if (s.kind == SpanKind::Node && s.parent == 0)
            ++topLevel[s.node.str()];
        if (s.kind == SpanKind::Node && s.parent > 0) {
            const auto& p = r.spans[s.parent - 1];
            const auto index = plan.indexOf(s.node);
            const bool member = index && plan.at(*index).coordinator;
            if (!member || p.kind != SpanKind::Round || p.round != s.round ||
                p.node != plan.at(*plan.at(*index).coordinator).node->id)
                say(where + " is a nested node span that is not a member's span in its coordinator's round");
        }
        // A round is under its coordinator's node span: the top-level one, or its span as a member.
        if (s.kind == SpanKind::Round &&
            (s.parent == 0 || r.spans[s.parent - 1].node != s.node || r.spans[s.parent - 1].kind != SpanKind::Node))
            say(where + " is a round outside its coordinator's node span");
        if (s.kind == SpanKind::Attempt)
            attemptsUnder[s.parent].push_back(&s);
    }
    for (const auto& pn : plan.nodes()) {
        const auto& id = pn.node->id.str();
        const int spans = topLevel.count(id) ? topLevel[id] : 0;
        if (pn.coordinator && spans > 0)
            say("member " + id + " has a node span of its own outside its coordinator");
        // A member meeting is held at most once: only a cascade or an adaptive meeting holds one.
        if (pn.coordinator && pn.node->kind == NodeKind::Coordinator && spansOfNode(r, pn.node->id) > 1)
            say("member meeting " + id + " was held " + std::to_string(spansOfNode(r, pn.node->id)) + " times");
        if (!pn.coordinator && spans > 1)
            say("node " + id + " ran " + std::to_string(spans) + " times");
        const auto it = r.results.find(pn.node->id);
        if (!pn.coordinator && spans == 0 && it != r.results.end() && it->second.status == Status::Ok)
            say("node " + id + " is ok without having run");
    }
    for (const auto& [parent, list] : attemptsUnder) {
        // Each call hangs its attempts under a span of its own: they count 1, 2, 3... in order.
        for (size_t k = 0; k < list.size(); ++k) {
            if (list[k]->attempt != int(k + 1))
                say("attempt span " + std::to_string(list[k]->id) + " under span " + std::to_string(parent) +
                    " is numbered " + std::to_string(list[k]->attempt) + ", not " + std::to_string(k + 1));
        }
    }

    // A synthesize answers either by its model (an attempt) or, with
    // skip_when_agree, by its inputs' agreement: then no attempt, no usage.
    for (const auto& pn : plan.nodes()) {
        const auto& id = pn.node->id.str();
        const auto it = r.results.find(pn.node->id);
        if (it == r.results.end())
            continue;
        const auto& result = it->second;
        const auto& config = pn.node->config;
        const bool synthesize =
            pn.node->kind == NodeKind::Aggregator && config.aggregatorStrategy == AggregatorStrategy::Synthesize;
        const auto attempts = std::count_if(r.spans.begin(), r.spans.end(), [&](const Span& s) {
            return s.node == pn.node->id && s.kind == SpanKind::Attempt;
        });
        if (result.skippedModel.empty()) {
            if (synthesize && result.ok() && attempts == 0)
                say("synthesize " + id + " is ok without a model call or an agreement");
            if (!result.agreed.empty())
                say("node " + id + " lists agreeing inputs without having skipped its model");
            continue;
        }
        if (!synthesize || !config.skipWhenAgree.value_or(false))
            say("node " + id + " skipped its model (" + result.skippedModel + ") without skip_when_agree");
        if (result.skippedModel != "agreement" || !result.ok())
            say("node " + id + " skipped its model as " + result.skippedModel + ", " +
                std::string(toString(result.status)));
        if (attempts != 0)
            say("node " + id + " skipped its model but has " + std::to_string(attempts) + " attempt spans");
        if (result.tokensIn != 0 || result.tokensOut != 0 || result.costUsd != 0)
            say("node " + id + " skipped its model but counts tokens or cost");
        if (result.agreed.size() < 2)
            say("node " + id + " skipped its model on " + std::to_string(result.agreed.size()) + " agreeing inputs");
        for (const auto& from : result.agreed) {
            const auto in = r.results.find(NodeId(from));
            if (in == r.results.end() || !in->second.ok() || in->second.answer != result.answer)
                say("node " + id + " counts " + from + " as agreeing on [" + result.answer + "]");
        }
        const auto span = std::find_if(r.spans.begin(), r.spans.end(), [&](const Span& s) {
            return s.node == pn.node->id && s.kind == SpanKind::Node && s.parent == 0;
        });
        if (span == r.spans.end() || span->note.rfind("skipped_model: agreement (", 0) != 0 ||
            span->status != Status::Ok)
            say("node " + id + " skipped its model but its span does not say so");
    }

    // Adaptive meetings: rounds one after another, numbered from 1; the first
    // asks min(initial, members) members together, each later one the single
    // member the round before named ("ask m3: …"); nobody is asked twice; a
    // round that ended ok says what it decided, and only the last one stops.
    for (size_t c = 0; c < plan.size(); ++c) {
        const auto& pn = plan.at(c);
        if (pn.node->kind != NodeKind::Coordinator || pn.node->config.mode != CoordinatorMode::Adaptive)
            continue;
        const auto& id = pn.node->id.str();
        std::vector<const Span*> rounds;
        std::map<SpanId, std::vector<std::string>> askedIn;
        std::map<std::string, int> timesAsked;
        for (const auto& s : r.spans) {
            if (s.node == pn.node->id && s.kind == SpanKind::Round)
                rounds.push_back(&s);
            if (s.kind == SpanKind::Node && s.parent > 0 && r.spans[s.parent - 1].node == pn.node->id) {
                askedIn[s.parent].push_back(s.node.str());
                ++timesAsked[s.node.str()];
            }
        }
        for (const auto& [member, times] : timesAsked) {
            if (times > 1)
                say("adaptive " + id + " asked " + member + " " + std::to_string(times) + " times");
        }
        const size_t initial =
            size_t(std::max<int64_t>(1, pn.node->config.initial.value_or(defaults::kInitialMembers)));
        for (size_t k = 0; k < rounds.size(); ++k) {
            const Span& round = *rounds[k];
            const std::string where = "adaptive " + id + " " + round.name;
            if (round.round != int(k + 1) || round.name != "round " + std::to_string(k + 1))
                say(where + " is round " + std::to_string(round.round) + " at place " + std::to_string(k + 1));
            if (k > 0 && rounds[k - 1]->endUs >= 0 && round.startUs < rounds[k - 1]->endUs)
                say(where + " starts before the round before it ended");
            const auto& asked = askedIn[round.id];
            const size_t expected = k == 0 ? std::min(initial, pn.members.size()) : 1;
            if (asked.size() != expected)
                say(where + " asked " + std::to_string(asked.size()) + " members, not " + std::to_string(expected));
            const bool last = k + 1 == rounds.size();
            if (round.status == Status::Ok) {
                const bool stops = round.note.rfind("stop: ", 0) == 0;
                if (stops != last || (!stops && round.note.rfind("ask ", 0) != 0))
                    say(where + " ended ok with the note \"" + round.note + "\"");
                if (!last && !stops) {
                    const auto& nextAsked = askedIn[rounds[k + 1]->id];
                    if (nextAsked.size() != 1 || round.note.rfind("ask " + nextAsked.front() + ": ", 0) != 0)
                        say(where + " said \"" + round.note + "\" but the next round asked someone else");
                }
            } else if (!last) {
                say(where + " ended " + std::string(toString(round.status)) + " and yet another round followed");
            }
        }
        for (const size_t m : pn.members) {
            const auto& member = plan.at(m).node->id;
            const auto it = r.results.find(member);
            if (!timesAsked.count(member.str()) && it != r.results.end() && it->second.status == Status::Ok)
                say("adaptive " + id + "'s member " + member.str() + " is ok without having been asked");
        }
    }

    // Decompose meetings: the solve round calls at most max_subtasks members
    // (default one per member); a plan round's note, if any, counts the
    // subtask lines dropped beyond that.
    for (size_t c = 0; c < plan.size(); ++c) {
        const auto& pn = plan.at(c);
        if (pn.node->kind != NodeKind::Coordinator || pn.node->config.mode != CoordinatorMode::Decompose)
            continue;
        const auto& id = pn.node->id.str();
        const auto most = defaults::maxSubtasks(pn.node->config.maxSubtasks, pn.members.size());
        for (const auto& round : r.spans) {
            if (round.node != pn.node->id || round.kind != SpanKind::Round)
                continue;
            const auto calls = std::count_if(r.spans.begin(), r.spans.end(), [&](const Span& s) {
                return s.kind == SpanKind::Node && s.parent == round.id;
            });
            if (calls > most)
                say("decompose " + id + " " + round.name + " called " + std::to_string(calls) +
                    " members, more than max_subtasks " + std::to_string(most));
            const auto prefix = "max_subtasks " + groupThousands(uint64_t(most)) + ": ";
            if (!round.note.empty() && (round.name != "plan" || round.note.rfind(prefix, 0) != 0))
                say("decompose " + id + " " + round.name + " notes \"" + round.note + "\"");
        }
    }

    // The status says whether there is an answer.
    const bool answered = r.output.ok();
    if (answered && r.status == RunStatus::Failed)
        say("the output has an answer but the run is failed");
    if (!answered && (r.status == RunStatus::Ok || r.status == RunStatus::Partial))
        say(std::string("the output has no answer but the run is ") + std::string(toString(r.status)));
    return broken;
}

// The stored copy equals the run the engine returned.
inline std::vector<std::string> checkStored(const RunResult& r, const StoredRun& stored)
{
    std::vector<std::string> broken;
    if (stored.summary.status != r.status)
        broken.push_back("stored status " + std::string(toString(stored.summary.status)) + ", engine " +
                         std::string(toString(r.status)));
    if (stored.summary.tokensIn != r.tokensIn || stored.summary.tokensOut != r.tokensOut ||
        stored.summary.calls != r.calls)
        broken.push_back("stored totals differ from the engine's");
    if (stored.spans.size() != r.spans.size()) {
        broken.push_back("stored " + std::to_string(stored.spans.size()) + " spans, engine " +
                         std::to_string(r.spans.size()));
        return broken;
    }
    for (size_t i = 0; i < r.spans.size(); ++i) {
        const auto& a = r.spans[i];
        const auto& b = stored.spans[i];
        if (a.id != b.id || a.parent != b.parent || a.node != b.node || a.kind != b.kind || a.name != b.name ||
            a.startUs != b.startUs || a.endUs != b.endUs || a.status != b.status || a.attempt != b.attempt ||
            a.round != b.round || a.model != b.model || a.tokensIn != b.tokensIn || a.tokensOut != b.tokensOut ||
            a.note != b.note)
            broken.push_back("stored span " + std::to_string(a.id) + " (" + a.node.str() + " " + a.name +
                             ") differs from the engine's");
    }
    for (const auto& node : stored.nodes) {
        const auto it = r.results.find(node.node);
        if (it == r.results.end() || it->second.status != node.result.status || it->second.answer != node.result.answer ||
            it->second.skippedModel != node.result.skippedModel || it->second.agreed != node.result.agreed)
            broken.push_back("stored result of " + node.node.str() + " differs from the engine's");
    }
    if (stored.nodes.size() != r.results.size())
        broken.push_back("stored " + std::to_string(stored.nodes.size()) + " node results, engine " +
                         std::to_string(r.results.size()));
    return broken;
}

// The first span two runs disagree on, for a failure message.
inline std::string spanDiff(const RunResult& a, const RunResult& b)
{
    const auto line = [](const Span& s) {
        return "#" + std::to_string(s.id) + " " + s.node.str() + " " + s.name + " " + std::to_string(s.startUs) + ".." +
               std::to_string(s.endUs) + " " + std::string(toString(s.status));
    };
    for (size_t i = 0; i < std::min(a.spans.size(), b.spans.size()); ++i) {
        if (!(a.spans[i] == b.spans[i]))
            return line(a.spans[i]) + "\n" + line(b.spans[i]) + "\n";
    }
    return std::to_string(a.spans.size()) + " spans, then " + std::to_string(b.spans.size()) + "\n";
}

// What two runs of one timing-free case must share: statuses, answers, tokens and costs.
inline std::string outcome(const RunResult& r)
{
    std::string out = std::string(toString(r.status)) + " calls " + std::to_string(r.calls) + "\n";
    char cost[48];
    for (const auto& [id, result] : r.results) {
        std::snprintf(cost, sizeof cost, "%.12g", result.costUsd);
        out += id.str() + " " + std::string(toString(result.status)) + " [" + result.answer + "] " +
               std::to_string(result.tokensIn) + "/" + std::to_string(result.tokensOut) + " $" + cost + "\n";
    }
    return out;
}

// The longest the team can take, in simulated milliseconds: the longest path
// through it, each call at its worst (every attempt to its timeout or to the
// slowest reply its model can give, with the longest backoffs, then the
// fallback the same way), each meeting at its largest number of turns.
inline double worstPathMs(const RunPlan& plan, const std::map<std::string, ResolvedProfile>& profiles)
{
    const auto callWorst = [&](const CallSettings& c) {
        double total = 0;
        std::vector<std::string> models{c.model};
        if (c.fallbackModel)
            models.push_back(*c.fallbackModel);
        for (const auto& m : models) {
            const auto it = profiles.find(m);
            const double reply =
                it == profiles.end() ? double(c.timeoutMs) : it->second.worstLatencyMs(c.params.maxTokens);
            total += double(c.retries + 1) * std::min(double(c.timeoutMs), reply);
            for (int a = 1; a <= c.retries; ++a)
                total += CallRunner::backoffMs(a, 1.0, std::nullopt);
        }
        return total;
    };
    // A meeting's worst: its members' (a member meeting's own worst), by mode.
    const std::function<double(size_t)> meetingWorst = [&](size_t i) {
        const auto& pn = plan.at(i);
        const auto& config = pn.node->config;
        double sum = 0, longest = 0;
        for (const size_t m : pn.members) {
            const double w = plan.at(m).node->kind == NodeKind::Coordinator ? meetingWorst(m)
                             : plan.at(m).call                              ? callWorst(*plan.at(m).call)
                                                                            : 0;
            sum += w;
            longest = std::max(longest, w);
        }
        const double rounds = double(config.maxRounds.value_or(3));
        const double planCall = pn.call ? callWorst(*pn.call) : 0;
        switch (config.mode.value_or(CoordinatorMode::RoundRobin)) {
        case CoordinatorMode::RoundRobin:
            return rounds * sum;
        case CoordinatorMode::Debate:
            return rounds * longest;
        case CoordinatorMode::Cascade:
        case CoordinatorMode::Adaptive: // each member at most once, never two rounds at a time
            return sum;
        case CoordinatorMode::Decompose:
            return 2 * planCall + sum;
        }
        return sum;
    };
    std::vector<double> own(plan.size(), 0.0);
    for (size_t i = 0; i < plan.size(); ++i) {
        const auto& pn = plan.at(i);
        const auto& config = pn.node->config;
        if (pn.coordinator)
            continue; // counted in its coordinator
        if (pn.node->kind == NodeKind::Coordinator) {
            own[i] = meetingWorst(i);
            continue;
        }
        if (pn.call &&
            (pn.node->kind == NodeKind::Expert ||
             (pn.node->kind == NodeKind::Router && config.routerStrategy == RouterStrategy::Llm) ||
             (pn.node->kind == NodeKind::Aggregator && config.aggregatorStrategy == AggregatorStrategy::Synthesize)))
            own[i] = callWorst(*pn.call);
    }
    // Longest path by relaxation in rounds: the team is acyclic, so size() rounds suffice.
    std::vector<double> best(own);
    for (size_t round = 0; round < plan.size(); ++round) {
        bool changed = false;
        for (size_t i = 0; i < plan.size(); ++i) {
            for (const auto& [to, e] : plan.at(i).out) {
                if (best[i] + own[to] > best[to]) {
                    best[to] = best[i] + own[to];
                    changed = true;
                }
            }
        }
        if (!changed)
            break;
    }
    return *std::max_element(best.begin(), best.end());
}

} // namespace invariants
