#include "conclave/experiment/CalibrationSamples.h"

#include "conclave/engine/ReplyParser.h"
#include "conclave/experiment/AnswerScorer.h"
#include "conclave/experiment/ExperimentSetup.h"
#include "conclave/io/TeamJson.h"
#include "conclave/local/ItemBank.h"

#include <algorithm>
#include <map>
#include <set>

namespace conclave {

namespace {

// The nodes of a team whose calls answer the run's task (the class comment says which).
std::set<NodeId> answeringNodes(const Team& team)
{
    std::set<NodeId> meetings; // coordinators whose members do not answer alone
    for (const auto& node : team.nodes) {
        if (node.kind == NodeKind::Coordinator && node.config.mode != CoordinatorMode::Cascade)
            meetings.insert(node.id);
    }
    std::set<NodeId> notAlone;
    for (const auto& edge : team.edges) {
        if (edge.isMember() && meetings.contains(edge.from))
            notAlone.insert(edge.to);
    }
    std::set<NodeId> out;
    for (const auto& node : team.nodes) {
        if (node.kind == NodeKind::Expert && !notAlone.contains(node.id))
            out.insert(node.id);
    }
    return out;
}

bool readExperiment(RunQueries& store, const ExperimentRecord& record, const std::filesystem::path& resourcesDir,
                    CalibrationSamples& out, std::string& error)
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
    std::map<std::string, std::set<NodeId>> answeringByTeam; // by the team's JSON as run
    for (const auto& trial : *trials) {
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
                answeringByTeam.emplace(run->teamJson, team.team ? answeringNodes(*team.team) : std::set<NodeId>{})
                    .first;
        }
        std::map<NodeId, const Span*> lastOk; // each node's last successful attempt
        for (const auto& span : run->spans) {
            if (span.kind != SpanKind::Attempt || span.model.empty() || span.endUs < 0)
                continue;
            if (span.status != Status::Ok && span.status != Status::Failed)
                continue;
            CalibrationSamples::Call call;
            call.model = span.model;
            call.ok = span.status == Status::Ok;
            // The endpoint's own time: a wait for admission (max_concurrency, a rate limit) is not the model's.
            const int64_t waitUs = std::max<int64_t>(0, span.waitUs);
            call.durationMs = double(span.serviceUs()) / 1000.0;
            call.ttftMs = span.ttftUs < 0 ? -1.0 : double(std::max<int64_t>(0, span.ttftUs - waitUs)) / 1000.0;
            call.tokensIn = span.tokensIn;
            call.tokensOut = span.tokensOut;
            call.costUsd = span.costUsd;
            out.calls.push_back(std::move(call));
            auto& last = lastOk[span.node];
            if (span.status == Status::Ok && (!last || span.endUs >= last->endUs))
                last = &span;
        }
        if (!task)
            continue;
        for (const auto& node : run->nodes) {
            const auto attempt = lastOk.find(node.node);
            if (!node.result.ok() || attempt == lastOk.end() || !attempt->second ||
                !answering->second.contains(node.node))
                continue;
            const auto answer = ReplyParser::parse(node.result.text).answer;
            const auto score = AnswerScorer::score(*task, answer);
            if (!score.correct)
                continue;
            out.answers.push_back({attempt->second->model, task->domain, spec->tasksetName + "\n" + task->id,
                                   !task->choices.empty(), ReplyParser::normalizeAnswer(answer), *score.correct,
                                   ItemBank::difficulty(*task)});
        }
    }
    return true;
}

} // namespace

std::optional<CalibrationSamples> CalibrationSamples::read(RunQueries& store,
                                                           const std::vector<std::string>& experimentIds,
                                                           const std::filesystem::path& resourcesDir,
                                                           std::string& error)
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
        if (!readExperiment(store, *record, resourcesDir, out, error))
            return std::nullopt;
    }
    return out;
}

} // namespace conclave
