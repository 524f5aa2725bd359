#include "conclave/experiment/TeamCostBound.h"

#include "conclave/engine/PromptBuilder.h"
#include "conclave/model/PromptTemplate.h"
#include "conclave/util/TokenEstimate.h"

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <vector>

namespace conclave {

namespace {

// The engine's default templates, chosen as it chooses them: an expert's
// (Run::defaultPrompt) by whether its inputs are all the input or routers, a
// member's (Meeting::callMember) by whether it is shown a transcript.
constexpr std::string_view kInputTemplate = "{{input}}";
constexpr std::string_view kInputsTemplate = "{{input}}\n\n{{inputs}}";
constexpr std::string_view kTaskTemplate = "{{task}}";
constexpr std::string_view kTranscriptTemplate = "{{task}}\n\nThe discussion so far:\n{{transcript}}";
// What a meeting puts between its transcript and its answer (Meeting::roundFinished).
constexpr std::string_view kAnswerLine = "\nAnswer: ";
constexpr int kMaxDepth = 32; // nested meetings; a valid team has far fewer

// One walk of the team for one input: the typical figure or the upper bound.
class Walk {
public:
    enum class Mode { Typical, Upper };

    Walk(const RunPlan& plan, size_t inputChars, Mode mode, RunCostBound& found)
        : m_plan(plan), m_input(inputChars), m_mode(mode), m_found(found)
    {
    }

    // Every node outside a meeting once; meetings with everything they ask.
    double run()
    {
        double usd = 0;
        for (size_t i = 0; i < m_plan.size(); ++i) {
            const auto& pn = m_plan.at(i);
            if (pn.coordinator)
                continue;
            switch (pn.node->kind) {
            case NodeKind::Expert:
                usd += call(i, answeringSystem(i).size(), render(i, promptOf(i, expertTemplate(i)), 0, 0, 0));
                break;
            case NodeKind::Router:
                if (pn.node->callsModel())
                    usd += call(i, PromptBuilder::routeChoiceSystem().size(),
                                PromptBuilder::routeChoicePrompt(routeLabels(i), "").size() + inputsChars(i));
                break;
            case NodeKind::Aggregator:
                if (pn.node->callsModel())
                    usd += call(i, synthesizeSystem(i).size(), synthesizePromptChars(i));
                break;
            case NodeKind::Coordinator:
                usd += meet(i, meetingTask(i), 0).usd;
                break;
            case NodeKind::Input:
            case NodeKind::Output:
                break;
            }
        }
        return usd;
    }

    // The longest text a node outside a meeting gives its readers.
    size_t outChars(size_t node)
    {
        if (const auto it = m_out.find(node); it != m_out.end())
            return it->second;
        if (!m_visiting.insert(node).second)
            return 0; // a cycle: the team would not run
        const auto& pn = m_plan.at(node);
        size_t chars = 0;
        switch (pn.node->kind) {
        case NodeKind::Input:
            chars = m_input;
            break;
        case NodeKind::Output:
            chars = longestInput(node);
            break;
        case NodeKind::Expert:
            chars = replyChars(node);
            break;
        case NodeKind::Router:
            chars = inputsChars(node);
            break;
        case NodeKind::Aggregator: {
            const auto strategy = pn.node->config.aggregatorStrategy.value_or(AggregatorStrategy::Majority);
            if (strategy == AggregatorStrategy::Synthesize)
                chars =
                    std::max(replyChars(node), pn.node->config.skipWhenAgree.value_or(false) ? longestInput(node) : 0);
            else if (strategy == AggregatorStrategy::Concat)
                chars = labelledChars(node);
            else
                chars = longestInput(node);
            break;
        }
        case NodeKind::Coordinator:
            chars = pn.coordinator ? replyChars(node) : meet(node, meetingTask(node), 0).outChars;
            break;
        }
        m_visiting.erase(node);
        m_out[node] = chars;
        return chars;
    }

private:
    struct Meeting {
        double usd = 0;
        size_t outChars = 0;
    };

    // A reply's longest text: its max_tokens, else the assumed cap.
    size_t replyChars(size_t node) const
    {
        const auto& call = m_plan.at(node).call;
        return charactersOf(call && call->params.maxTokens ? *call->params.maxTokens
                                                           : TeamCostBound::kAssumedMaxTokens);
    }

    std::string_view expertTemplate(size_t node) const
    {
        const auto& in = m_plan.at(node).in;
        const bool fromInputOnly = std::all_of(in.begin(), in.end(), [&](const auto& e) {
            const auto kind = m_plan.at(e.first).node->kind;
            return kind == NodeKind::Input || kind == NodeKind::Router;
        });
        return fromInputOnly ? kInputTemplate : kInputsTemplate;
    }

    std::string_view promptOf(size_t node, std::string_view fallback) const
    {
        const auto& call = m_plan.at(node).call;
        return call && call->prompt ? std::string_view(*call->prompt) : fallback;
    }

    // The system prompt of an answering call (an expert, a member): its own, then the answer format.
    std::string answeringSystem(size_t node) const
    {
        const std::string own = m_plan.at(node).call ? m_plan.at(node).call->system : std::string();
        return own + (own.empty() ? "" : "\n\n") + std::string(PromptBuilder::answerFormat());
    }

    std::string synthesizeSystem(size_t node) const
    {
        const std::string own = m_plan.at(node).call ? m_plan.at(node).call->system : std::string();
        return (own.empty() ? PromptBuilder::synthesizeSystem() : own) + "\n\n" +
               std::string(PromptBuilder::answerFormat());
    }

    // A coordinator's own call: its system prompt, if any, before the request's.
    std::string coordinatorSystem(size_t node, const std::string& request) const
    {
        const std::string own = m_plan.at(node).call ? m_plan.at(node).call->system : std::string();
        return own.empty() ? request : own + "\n\n" + request;
    }

    std::vector<std::string> routeLabels(size_t node) const
    {
        std::vector<std::string> labels;
        for (const auto& [to, e] : m_plan.at(node).out) {
            const auto& when = m_plan.team().edges[e].when;
            if (when && std::find(labels.begin(), labels.end(), *when) == labels.end())
                labels.push_back(*when);
        }
        return labels;
    }

    size_t longestInput(size_t node)
    {
        size_t chars = 0;
        for (const auto& [from, e] : m_plan.at(node).in)
            chars = std::max(chars, outChars(from));
        return chars;
    }

    // Every input labelled with its node ("[a]\n…\n\n[b]\n…", PromptBuilder::labelledInputs).
    size_t labelledChars(size_t node)
    {
        std::vector<Candidate> labels;
        size_t texts = 0;
        for (const auto& [from, e] : m_plan.at(node).in) {
            labels.push_back({m_plan.at(from).node->id.str(), {}, 0, {}});
            texts += outChars(from);
        }
        return PromptBuilder::labelledInputs(labels).size() + texts;
    }

    // {{inputs}}: one input's text as it is, several labelled.
    size_t inputsChars(size_t node)
    {
        const auto& in = m_plan.at(node).in;
        if (in.empty())
            return 0;
        return in.size() == 1 ? outChars(in.front().first) : labelledChars(node);
    }

    size_t synthesizePromptChars(size_t node)
    {
        std::vector<Candidate> candidates;
        size_t answers = 0;
        for (const auto& [from, e] : m_plan.at(node).in) {
            candidates.push_back({m_plan.at(from).node->id.str(), {}, 0, {}});
            answers += outChars(from);
        }
        return PromptBuilder::synthesizePrompt("", candidates).size() + m_input + answers;
    }

    // A coordinator's task: its inputs, or the run's input when it has none.
    size_t meetingTask(size_t node)
    {
        const size_t chars = inputsChars(node);
        return chars > 0 ? chars : m_input;
    }

    // A template's length with every placeholder at its longest.
    size_t render(size_t node, std::string_view tmpl, size_t taskChars, size_t transcriptChars, int round)
    {
        size_t chars = 0;
        PromptTemplate::scan(
            tmpl, [&](std::string_view text) { chars += text.size(); },
            [&](const PromptTemplate::Placeholder& p) {
                if (p.name == "input")
                    chars += m_input;
                else if (p.name == "inputs")
                    chars += inputsChars(node);
                else if (p.name == "transcript")
                    chars += transcriptChars;
                else if (p.name == "task")
                    chars += taskChars;
                else if (p.name == "round")
                    chars += std::to_string(round).size();
                else if (p.name.starts_with(PromptTemplate::kFromPrefix)) {
                    const auto id = p.name.substr(PromptTemplate::kFromPrefix.size());
                    if (const auto from = m_plan.indexOf(NodeId(std::string(id))))
                        chars += outChars(*from);
                } else {
                    chars += p.whole.size();
                }
            });
        return chars;
    }

    // The price of a paid model, or nothing (free, or unpriced: noted).
    std::optional<Price> priceOf(const Backend& backend, const std::string& model)
    {
        if (backend.prices) {
            if (const auto it = backend.prices->find(model); it != backend.prices->end())
                return it->second;
        }
        m_found.unpriced.insert(model);
        return std::nullopt;
    }

    // One logical call of `node` with a prompt of these lengths: its attempts, on paid endpoints only.
    double call(size_t node, size_t systemChars, size_t promptChars)
    {
        const auto& pn = m_plan.at(node);
        if (!pn.call)
            return 0;
        const auto& settings = *pn.call;
        const auto backend = m_plan.team().backends.find(settings.backend);
        if (backend == m_plan.team().backends.end() || backend->second.kind != BackendKind::OpenAi)
            return 0;
        if (!settings.params.maxTokens)
            m_found.uncapped.insert(pn.node->id.str());
        const double in = double(estimateTokens(systemChars + promptChars));
        const double out = double(settings.params.maxTokens.value_or(TeamCostBound::kAssumedMaxTokens));
        const auto atPrice = [&](const std::string& model) {
            const auto price = priceOf(backend->second, model);
            return price ? price->costUsd(in, out) : 0.0;
        };
        if (m_mode == Mode::Typical)
            return atPrice(settings.model);
        // CallRunner: 1 + retries attempts on the model, then as many on the fallback model.
        const double attempts = double(1 + std::max(0, settings.retries));
        double usd = attempts * atPrice(settings.model);
        if (settings.fallbackModel)
            usd += attempts * atPrice(*settings.fallbackModel);
        return usd;
    }

    // What a member gives its meeting: a reply, or a member meeting's whole text.
    size_t memberOut(size_t member, size_t taskChars, int depth)
    {
        if (m_plan.at(member).node->kind == NodeKind::Coordinator)
            return meet(member, taskChars, depth + 1).outChars;
        return replyChars(member);
    }

    // One turn of a member: a call, or a whole member meeting on the same task. An adaptive
    // meeting's members answer alone: its default template shows no transcript.
    double turn(size_t member, size_t taskChars, size_t transcriptChars, int round, int depth, bool alone = false)
    {
        if (m_plan.at(member).node->kind == NodeKind::Coordinator)
            return meet(member, taskChars, depth + 1).usd;
        const auto fallback = transcriptChars == 0 || alone ? kTaskTemplate : kTranscriptTemplate;
        return call(member, answeringSystem(member).size(),
                    render(member, promptOf(member, fallback), taskChars, transcriptChars, round));
    }

    // A transcript line for a member's turn, its answer at its longest.
    size_t line(size_t member, int round, size_t taskChars, int depth)
    {
        return PromptBuilder::transcriptLine(m_plan.at(member).node->id.str(), round, "", 0).size() +
               memberOut(member, taskChars, depth);
    }

    Meeting meet(size_t coordinator, size_t taskChars, int depth)
    {
        if (depth > kMaxDepth)
            return {};
        const auto key = std::make_pair(coordinator, taskChars);
        if (const auto it = m_meetings.find(key); it != m_meetings.end())
            return it->second;
        const auto& pn = m_plan.at(coordinator);
        const auto& config = pn.node->config;
        const auto& members = pn.members;
        Meeting m;
        if (members.empty())
            return m;
        const auto mode = config.mode.value_or(CoordinatorMode::RoundRobin);
        const int rounds = int(std::max<int64_t>(1, config.maxRounds.value_or(defaults::kMaxRounds)));
        size_t longestAnswer = 0;
        for (const size_t member : members)
            longestAnswer = std::max(longestAnswer, memberOut(member, taskChars, depth));
        switch (mode) {
        case CoordinatorMode::RoundRobin:
        case CoordinatorMode::Debate: {
            // Round r's speakers see every turn of the rounds before; round robin also this round's so far.
            size_t transcript = 0;
            for (int r = 1; r <= rounds; ++r) {
                size_t thisRound = 0;
                for (const size_t member : members) {
                    const size_t seen = transcript + (mode == CoordinatorMode::RoundRobin ? thisRound : 0);
                    m.usd += turn(member, taskChars, seen, r, depth);
                    thisRound += line(member, r, taskChars, depth);
                }
                transcript += thisRound;
            }
            m.outChars = transcript + kAnswerLine.size() + longestAnswer;
            break;
        }
        case CoordinatorMode::Adaptive: {
            // Its first `initial` members, then one more each round; which ones the gate picks is not
            // known before the run, so the dearest turns are counted.
            const size_t initial = size_t(std::max<int64_t>(1, config.initial.value_or(defaults::kInitialMembers)));
            const size_t asked = std::min(members.size(), std::min(initial, members.size()) + size_t(rounds - 1));
            size_t transcript = 0;
            std::vector<size_t> lines;
            for (const size_t member : members)
                lines.push_back(line(member, rounds, taskChars, depth));
            std::sort(lines.rbegin(), lines.rend());
            for (size_t k = 0; k + 1 < asked; ++k)
                transcript += lines[k];
            std::vector<double> turns;
            for (const size_t member : members)
                turns.push_back(turn(member, taskChars, transcript, rounds, depth, true));
            std::sort(turns.rbegin(), turns.rend());
            for (size_t k = 0; k < asked; ++k)
                m.usd += turns[k];
            m.outChars = transcript + (asked > 0 ? lines[asked - 1] : 0) + kAnswerLine.size() + longestAnswer;
            break;
        }
        case CoordinatorMode::Cascade: {
            int step = 0;
            for (const size_t member : members)
                m.usd += turn(member, taskChars, 0, ++step, depth);
            m.outChars = longestAnswer;
            break;
        }
        case CoordinatorMode::Decompose: {
            const auto subtasks = size_t(defaults::maxSubtasks(config.maxSubtasks, members.size()));
            const size_t plan = replyChars(coordinator);
            m.usd += call(coordinator, coordinatorSystem(coordinator, PromptBuilder::decomposeSystem()).size(),
                          PromptBuilder::decomposePrompt("", subtasks).size() + taskChars);
            // Each subtask as long as the whole plan (upper), or its share of it (typical); a plan
            // with no subtask line leaves the task itself to solve.
            const size_t subtask = m_mode == Mode::Upper ? std::max(plan, taskChars) : (plan + subtasks - 1) / subtasks;
            std::vector<Candidate> parts;
            size_t answers = 0;
            for (size_t i = 0; i < subtasks; ++i) {
                const size_t member = members[i % members.size()];
                m.usd += turn(member, subtask, 0, 2, depth);
                parts.push_back({m_plan.at(member).node->id.str(), {}, 0, {}});
                answers += memberOut(member, subtask, depth);
            }
            m.usd += call(coordinator, coordinatorSystem(coordinator, PromptBuilder::combineSystem()).size(),
                          PromptBuilder::combinePrompt("", parts).size() + taskChars + answers);
            m.outChars = replyChars(coordinator);
            break;
        }
        }
        m_meetings[key] = m;
        return m;
    }

    const RunPlan& m_plan;
    size_t m_input;
    Mode m_mode;
    RunCostBound& m_found;
    std::map<size_t, size_t> m_out;
    std::set<size_t> m_visiting;
    std::map<std::pair<size_t, size_t>, Meeting> m_meetings;
};

} // namespace

TeamCostBound::TeamCostBound(const Team& team)
{
    std::string error;
    m_plan = RunPlan::make(team, error);
    if (!m_plan)
        return;
    for (const auto& pn : m_plan->nodes()) {
        if (!pn.call || !pn.node->callsModel())
            continue;
        const auto backend = team.backends.find(pn.call->backend);
        if (backend != team.backends.end() && backend->second.kind == BackendKind::OpenAi)
            m_paid = true;
    }
}

RunCostBound TeamCostBound::of(size_t inputChars) const
{
    RunCostBound bound;
    if (!m_plan)
        return bound;
    Walk upper(*m_plan, inputChars, Walk::Mode::Upper, bound);
    bound.upperUsd = upper.run();
    bound.outputChars = upper.outChars(m_plan->outputIndex());
    Walk typical(*m_plan, inputChars, Walk::Mode::Typical, bound);
    bound.typicalUsd = typical.run();
    return bound;
}

} // namespace conclave
