#include "conclave/experiment/CalibrationSamples.h"

#include "conclave/engine/ReplyParser.h"
#include "conclave/experiment/AnswerScorer.h"
#include "conclave/experiment/ExperimentSetup.h"
#include "conclave/io/TeamJson.h"
#include "conclave/local/ItemBank.h"
#include "conclave/local/Plurality.h"
#include "conclave/local/WrongAnswers.h"
#include "conclave/model/PromptTemplate.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace conclave {

namespace {

struct ReadNodes {
    std::set<NodeId> answering;                         // whose calls answer the run's task (the class comment says which)
    std::map<NodeId, std::vector<NodeId>> synthesizers; // synthesize aggregators, and the nodes that feed them
    // Members of meetings shown the turns before theirs (debate, round_robin).
    struct Seat {
        NodeId meeting;
        size_t seat = 0; // its place in the meeting's member edges: a round's transcript order
        bool sameRound = false; // round_robin: shown the turns of its round spoken before it
    };
    std::map<NodeId, Seat> seats;
};

ReadNodes readNodes(const Team& team)
{
    std::set<NodeId> meetings; // coordinators whose members do not answer alone
    std::set<NodeId> cascades;
    for (const auto& node : team.nodes) {
        if (node.kind == NodeKind::Coordinator)
            (node.config.mode == CoordinatorMode::Cascade ? cascades : meetings).insert(node.id);
    }
    // A cascade's member answers alone unless its prompt shows the earlier
    // members' answers; its first member (in member-edge order, the order it
    // asks them) is shown none, so it always answers alone.
    const auto showsTranscript = [&](const NodeId& id) {
        const Node* node = team.findNode(id);
        if (!node || !node->config.call.prompt)
            return false;
        const auto names = PromptTemplate::names(*node->config.call.prompt);
        return std::find(names.begin(), names.end(), "transcript") != names.end();
    };
    std::set<NodeId> notAlone;
    std::set<NodeId> cascadesStarted;
    std::map<NodeId, size_t> seated; // members seated so far, per meeting
    ReadNodes out;
    for (const auto& edge : team.edges) {
        if (!edge.isMember())
            continue;
        // A debate's or round_robin's member is shown the turns before it unless
        // its own prompt leaves {{transcript}} out (adaptive members answer alone).
        const Node* coordinator = team.findNode(edge.from);
        const Node* member = team.findNode(edge.to);
        const auto mode = coordinator ? coordinator->config.mode.value_or(CoordinatorMode::RoundRobin)
                                      : CoordinatorMode::Decompose;
        const bool shown = member && (!member->config.call.prompt || showsTranscript(edge.to));
        if (meetings.contains(edge.from) && shown &&
            (mode == CoordinatorMode::Debate || mode == CoordinatorMode::RoundRobin))
            out.seats[edge.to] = {edge.from, seated[edge.from]++, mode == CoordinatorMode::RoundRobin};
        const bool first = cascades.contains(edge.from) && cascadesStarted.insert(edge.from).second;
        if (meetings.contains(edge.from) || (cascades.contains(edge.from) && !first && showsTranscript(edge.to)))
            notAlone.insert(edge.to);
    }
    for (const auto& node : team.nodes) {
        if (node.kind == NodeKind::Expert && !notAlone.contains(node.id))
            out.answering.insert(node.id);
        if (node.kind == NodeKind::Aggregator && node.callsModel())
            out.synthesizers[node.id];
    }
    for (const auto& edge : team.edges) {
        if (const auto s = out.synthesizers.find(edge.to); s != out.synthesizers.end() && !edge.isMember())
            s->second.push_back(edge.from);
    }
    return out;
}

// Each meeting member's turns (its last successful attempt per round) that
// were shown earlier turns, scored: the transcript a turn was shown is the
// meeting's turns of earlier rounds, and in a round_robin those of its round
// that ended before it was asked, in (round, seat) order as Meeting shows them.
void readMeetingTurns(const StoredRun& run, const ReadNodes& nodes, const Task& task, const std::string& key,
                      std::vector<CalibrationSamples::MeetingTurn>& out)
{
    if (nodes.seats.empty())
        return;
    struct Turn {
        const Span* span = nullptr;
        const ReadNodes::Seat* seat = nullptr;
        int64_t askedUs = 0; // its first attempt's start
        std::string answer;  // normalised
    };
    std::map<std::pair<NodeId, int>, Turn> turns;
    for (const auto& span : run.spans) {
        if (span.kind != SpanKind::Attempt || span.model.empty() || span.endUs < 0)
            continue;
        const auto seat = nodes.seats.find(span.node);
        if (seat == nodes.seats.end())
            continue;
        auto& turn = turns[{span.node, span.round}];
        if (!turn.seat)
            turn.askedUs = span.startUs;
        turn.seat = &seat->second;
        turn.askedUs = std::min(turn.askedUs, span.startUs);
        const auto text = run.texts.find(span.id);
        if (span.status == Status::Ok && text != run.texts.end() && (!turn.span || span.endUs >= turn.span->endUs)) {
            turn.span = &span;
            turn.answer = ReplyParser::normalizeAnswer(ReplyParser::parse(text->second).answer);
        }
    }
    std::vector<const Turn*> ordered;
    for (const auto& [at, turn] : turns)
        if (turn.span && !turn.answer.empty())
            ordered.push_back(&turn);
    std::stable_sort(ordered.begin(), ordered.end(), [](const Turn* a, const Turn* b) {
        return std::tie(a->span->round, a->seat->seat) < std::tie(b->span->round, b->seat->seat);
    });
    const auto shownTo = [&](const Turn* turn) {
        std::vector<const Turn*> shown;
        for (const Turn* other : ordered) {
            if (other == turn || other->seat->meeting != turn->seat->meeting)
                continue;
            const bool earlierRound = other->span->round < turn->span->round;
            const bool spokeBefore = turn->seat->sameRound && other->span->round == turn->span->round &&
                                     other->span->endUs <= turn->askedUs;
            if (earlierRound || spokeBefore)
                shown.push_back(other);
        }
        return shown;
    };
    const auto right = [&](const std::string& answer) { return AnswerScorer::score(task, answer).correct; };
    for (const Turn* turn : ordered) {
        const auto shown = shownTo(turn);
        const auto correct = right(turn->answer);
        if (shown.empty() || !correct)
            continue;
        CalibrationSamples::MeetingTurn read{turn->span->model, task.domain, key, ItemBank::difficulty(task), false,
                                             *correct, {}};
        std::vector<std::string> answers;
        for (const Turn* other : shown) {
            answers.push_back(other->answer);
            if (const auto r = right(other->answer); r && shownTo(other).empty())
                read.shownAlone.emplace_back(other->span->model, *r);
        }
        read.pluralityRight = right(Plurality::of(answers)).value_or(false);
        out.push_back(std::move(read));
    }
}

// Every finished call attempt of a run (cancelled ones left out), as `calls`
// holds them; each node's last successful attempt, whose reply its result is.
std::map<NodeId, const Span*> readCalls(const StoredRun& run, std::vector<CalibrationSamples::Call>& calls)
{
    std::map<NodeId, const Span*> lastOk; // each node's last successful attempt
    // Each call's latest attempt so far, by (parent span, node, model, draw): how a retry's predecessor ended.
    std::map<std::tuple<SpanId, NodeId, std::string, std::string>, std::pair<int, Status>> latestAttempt;
    for (const auto& span : run.spans) {
        if (span.kind != SpanKind::Attempt || span.model.empty() || span.endUs < 0)
            continue;
        if (span.status != Status::Ok && span.status != Status::Failed && span.status != Status::Timeout)
            continue;
        CalibrationSamples::Call call;
        call.model = span.model;
        call.ok = span.status == Status::Ok;
        call.timedOut = span.status == Status::Timeout;
        // The endpoint's own time: a wait for admission (max_concurrency, a rate limit) is not the model's.
        const int64_t waitUs = std::max<int64_t>(0, span.waitUs);
        call.durationMs = double(span.serviceUs()) / 1000.0;
        call.ttftMs = span.ttftUs < 0 ? -1.0 : double(std::max<int64_t>(0, span.ttftUs - waitUs)) / 1000.0;
        call.tokensIn = span.tokensIn;
        call.tokensOut = span.tokensOut;
        call.costUsd = span.costUsd;
        call.inflight = span.inflight;
        call.attempt = std::max(1, span.attempt);
        auto& before = latestAttempt[{span.parent, span.node, span.model, span.draw}];
        call.afterTimeout = call.attempt > 1 && before.first == call.attempt - 1 && before.second == Status::Timeout;
        before = {call.attempt, span.status};
        calls.push_back(std::move(call));
        auto& last = lastOk[span.node];
        if (span.status == Status::Ok && (!last || span.endUs >= last->endUs))
            last = &span;
    }
    return lastOk;
}

bool readExperiment(RunQueries& store, const ExperimentRecord& record, const std::filesystem::path& resourcesDir,
                    CalibrationSamples& out, std::string& error, const CalibrationSamples::TaskFilter& keep)
{
    const auto fail = [&](const std::string& why) {
        error = "experiment " + record.id + ": " + why;
        return false;
    };
    std::string why;
    const auto spec = StoredSpec::fromJson(record.specJson, why);
    if (!spec)
        return fail(why);
    std::vector<std::string> errors;
    std::vector<std::string> warnings;
    const auto tasks = ExperimentSetup::storedTasks(*spec, resourcesDir, errors, warnings);
    if (!tasks)
        return fail(errors.empty() ? "its tasks cannot be reloaded" : errors.front());
    auto trials = store.trials(record.id, why);
    if (!trials)
        return fail(why);
    std::map<std::string, ReadNodes> answeringByTeam; // by the team's JSON as run
    const auto setHash = tasks->contentHash();
    for (const auto& trial : *trials) {
        if (keep && !keep(setHash, trial.task))
            continue;
        const Task* task = tasks->byId(trial.task);
        if (trial.runId.str().empty())
            return fail("trial " + trial.task + " (seed " + std::to_string(trial.seed) +
                        ") kept no run (eval --store summaries): calibration reads every call of measured runs");
        auto run = store.load(trial.runId, true, why);
        if (!run)
            return fail("trial " + trial.task + " (seed " + std::to_string(trial.seed) + "): run " + trial.runId.str() +
                        ": " + why);
        ++out.trials;
        auto answering = answeringByTeam.find(run->teamJson);
        if (answering == answeringByTeam.end()) {
            auto team = teamFromJsonText(run->teamJson);
            answering =
                answeringByTeam.emplace(run->teamJson, team.team ? readNodes(*team.team) : ReadNodes{})
                    .first;
        }
        const auto lastOk = readCalls(*run, out.calls);
        if (!task)
            continue;
        readMeetingTurns(*run, answering->second, *task, spec->tasksetName + "\n" + task->id, out.meetingTurns);
        const int wrongOptions = int(WrongAnswers(*task, tasks->items()).all().size());
        std::map<NodeId, const StoredNode*> results;
        for (const auto& node : run->nodes)
            results.emplace(node.node, &node);
        for (const auto& node : run->nodes) {
            const auto attempt = lastOk.find(node.node);
            if (!node.result.ok() || attempt == lastOk.end() || !attempt->second)
                continue;
            const auto parsed = ReplyParser::parse(node.result.text);
            const auto score = AnswerScorer::score(*task, parsed.answer);
            if (!score.correct)
                continue;
            const std::string& model = attempt->second->model;
            if (answering->second.answering.contains(node.node)) {
                const auto key = spec->tasksetName + "\n" + task->id;
                out.tasks.try_emplace(key, CalibrationSamples::MeasuredTask{spec->tasksetName, *task});
                ++out.answersPerExperiment.back();
                out.answers.push_back({model, task->domain, key,
                                       !task->choices.empty(), ReplyParser::normalizeAnswer(parsed.answer),
                                       *score.correct, ItemBank::difficulty(*task), wrongOptions,
                                       parsed.confidence, out.experiments.size() - 1, trial.seed,
                                       parsed.answerLine});
                continue;
            }
            const auto inputs = answering->second.synthesizers.find(node.node);
            if (inputs == answering->second.synthesizers.end())
                continue;
            CalibrationSamples::Synthesis synthesis{model, 0, 0, *score.correct, true};
            const auto own = ReplyParser::normalizeAnswer(parsed.answer);
            for (const auto& from : inputs->second) {
                const auto input = results.find(from);
                if (input == results.end() || !input->second->result.ok())
                    continue;
                const auto candidate = ReplyParser::parse(input->second->result.text).answer;
                ++synthesis.candidates;
                synthesis.right += AnswerScorer::score(*task, candidate).correct.value_or(false) ? 1 : 0;
                synthesis.own = synthesis.own && ReplyParser::normalizeAnswer(candidate) != own;
            }
            if (synthesis.candidates > 0)
                out.syntheses.push_back(std::move(synthesis));
        }
    }
    return true;
}

} // namespace

std::optional<CalibrationSamples> CalibrationSamples::read(RunQueries& store,
                                                           const std::vector<std::string>& experimentIds,
                                                           const std::filesystem::path& resourcesDir,
                                                           std::string& error, const TaskFilter& keep)
{
    CalibrationSamples out;
    for (const auto& id : experimentIds) {
        std::string why;
        auto record = store.experiment(id, why);
        if (!record) {
            error = why;
            return std::nullopt;
        }
        if (std::find(out.experiments.begin(), out.experiments.end(), record->id) != out.experiments.end())
            continue;
        out.experiments.push_back(record->id);
        out.answersPerExperiment.push_back(0);
        if (!readExperiment(store, *record, resourcesDir, out, error, keep))
            return std::nullopt;
    }
    return out;
}

bool CalibrationSamples::readServed(RunQueries& store, int64_t sinceMs, std::string& error)
{
    RunFilter served;
    served.source = RunSource::Serve;
    served.startedSinceMs = sinceMs;
    auto runs = store.list(served, error);
    if (!runs)
        return false;
    // Oldest first, as they were served.
    for (auto r = runs->rbegin(); r != runs->rend(); ++r) {
        std::string why;
        const auto run = store.load(r->id, false, why);
        if (!run) {
            error = "served run " + r->id.str() + ": " + why;
            return false;
        }
        readCalls(*run, calls);
        ++servedRuns;
    }
    return true;
}

} // namespace conclave
