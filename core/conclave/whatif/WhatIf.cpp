#include "conclave/whatif/WhatIf.h"

#include "conclave/io/TeamJson.h"
#include "conclave/replay/ReplayNote.h"
#include "conclave/session/Engine.h"
#include "conclave/replay/RunRecordings.h"
#include "conclave/store/RunQueries.h"
#include "conclave/whatif/ProjectionRuns.h"
#include "conclave/whatif/SpeedupPlan.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace conclave {

namespace {

// Each node's last node span: its status is the result's, its end and its note what it decided.
std::map<NodeId, const Span*> nodeSpans(const std::vector<Span>& spans)
{
    std::map<NodeId, const Span*> out;
    for (const auto& span : spans)
        if (span.kind == SpanKind::Node)
            out[span.node] = &span;
    return out;
}

// When `node` ended, by its last node span; -1 when it has none.
int64_t endOf(const std::map<NodeId, const Span*>& spans, const NodeId& node)
{
    const auto it = spans.find(node);
    return it == spans.end() ? int64_t(-1) : it->second->endUs;
}

} // namespace

std::optional<WhatIf> WhatIf::load(Engine& engine, RunQueries& reader, const std::string& runIdOrPrefix,
                                   std::string& error,
                                   ModelsFile::Profiles simulatorModels)
{
    const auto id = reader.resolve(runIdOrPrefix, error);
    if (!id)
        return std::nullopt;
    auto stored = reader.load(*id, false, error);
    if (!stored)
        return std::nullopt;
    const auto status = stored->summary.status;
    if (status == RunStatus::Running || status == RunStatus::Interrupted) {
        error = "run " + id->str() + " is " + std::string(toString(status)) +
                ": a what-if re-runs a run that has ended";
        return std::nullopt;
    }
    auto loaded = teamFromJsonText(stored->teamJson);
    if (!loaded.team) {
        error = "run " + id->str() + ": its stored team cannot be read";
        return std::nullopt;
    }
    auto attempts = reader.runAttempts(*id, error);
    if (!attempts)
        return std::nullopt;
    ReplayTeam::Settings settings;
    settings.owner = "run " + id->str();
    settings.realClock = stored->summary.clock == ClockKind::Real;
    settings.simulatorModels = std::move(simulatorModels);
    settings.waitsRecorded = std::none_of(stored->spans.begin(), stored->spans.end(), [](const Span& span) {
        return span.kind == SpanKind::Attempt && span.waitUs < 0;
    });
    auto replay = ReplayTeam::make(engine, std::move(*loaded.team),
                                   std::make_shared<RunRecordings>(*id, std::move(*attempts)), std::move(settings),
                                   error);
    if (!replay)
        return std::nullopt;
    return WhatIf(engine, std::move(*stored), std::move(*replay));
}

std::optional<RunResult> WhatIf::projection(const WhatIfChanges& changes, std::string& error) const
{
    const auto prepared = m_replay.prepared(changes, error);
    if (!prepared)
        return std::nullopt;
    const auto& summary = m_stored.summary;
    auto started = m_engine->start(*prepared, summary.input,
                                   Engine::StartOptions{summary.seed, {}, ClockRequest::Virtual, {}, {}});
    if (!started.run) {
        error = started.error;
        return std::nullopt;
    }
    auto result = started.run->wait();
    // A run recorded on the real clock at a time_scale: the projection's team time in its scale.
    if (const double k = m_replay.timeScale(); k != 1.0) {
        const auto scaled = [k](int64_t us) { return us < 0 ? us : std::llround(double(us) * k); };
        for (auto& span : result.spans) {
            span.startUs = scaled(span.startUs);
            span.endUs = scaled(span.endUs);
            span.ttftUs = scaled(span.ttftUs);
            span.waitUs = scaled(span.waitUs);
        }
        result.wallUs = scaled(result.wallUs);
        result.criticalPath.lengthUs = scaled(result.criticalPath.lengthUs);
    }
    return result;
}

std::optional<WhatIfReport> WhatIf::project(const WhatIfChanges& changes, std::string& error,
                                            RunResult* keep) const
{
    auto result = projection(changes, error);
    if (!result)
        return std::nullopt;
    const RunResult& projected = *result;
    const auto& summary = m_stored.summary;
    WhatIfReport report;
    report.run = summary.id.str();
    report.team = summary.teamName;
    report.clock = summary.clock;
    for (const auto& [node, change] : changes.speeds.byNode())
        report.changes.push_back(node.str() + ": " + change.text());
    for (const auto& [id, model] : changes.models)
        report.changes.push_back(id.str() + ": model " + team().findNode(id)->config.call.model.value_or("default") +
                                 " → " + model);
    for (const auto& [name, limit] : changes.maxConcurrency) {
        const auto was = team().backends.at(name).maxConcurrency;
        report.changes.push_back(name.str() + ".max_concurrency: " + (was ? std::to_string(*was) : "no limit") +
                                 " → " + std::to_string(limit));
    }
    report.statusBefore = summary.status;
    report.statusAfter = projected.status;
    report.wallBefore = summary.wallUs;
    report.wallAfter = projected.wallUs;
    report.costBefore = summary.costUsd;
    report.costAfter = projected.costUsd;
    report.answerBefore = m_stored.output.answer;
    report.answerAfter = projected.output.answer;
    report.pathBefore = m_stored.criticalPath;
    report.pathAfter = projected.criticalPath.nodes;
    const auto before = nodeSpans(m_stored.spans);
    const auto after = nodeSpans(projected.spans);
    std::map<NodeId, const StoredNode*> storedNodes;
    for (const auto& n : m_stored.nodes)
        storedNodes[n.node] = &n;
    for (const auto& node : team().nodes) {
        WhatIfNode n;
        n.node = node.id;
        if (const auto it = storedNodes.find(node.id); it != storedNodes.end()) {
            n.before = it->second->result.status;
            n.answerBefore = it->second->result.answer;
        }
        if (const auto it = projected.results.find(node.id); it != projected.results.end()) {
            n.after = it->second.status;
            n.answerAfter = it->second.answer;
        }
        if (const auto it = before.find(node.id); it != before.end()) {
            n.endBefore = it->second->endUs;
            n.noteBefore = it->second->note;
        }
        if (const auto it = after.find(node.id); it != after.end()) {
            n.endAfter = it->second->endUs;
            n.noteAfter = it->second->note;
        }
        const auto& c = node.config;
        if (node.kind == NodeKind::Aggregator && (c.quorum || c.deadlineMs || c.minConfidence)) {
            n.decidesOnTime = true;
            n.quorum = c.quorum.has_value();
            for (const auto& edge : team().edges) {
                if (edge.to != node.id || edge.isMember())
                    continue;
                const auto was = storedNodes.find(edge.from);
                const auto now = projected.results.find(edge.from);
                if (was != storedNodes.end() && was->second->result.status == Status::Ok &&
                    endOf(before, edge.from) <= n.endBefore)
                    n.decidersBefore.push_back(edge.from);
                if (was != storedNodes.end() && was->second->result.status == Status::Cancelled)
                    n.cancelledBefore.push_back(edge.from);
                if (now != projected.results.end() && now->second.status == Status::Ok &&
                    endOf(after, edge.from) <= n.endAfter)
                    n.decidersAfter.push_back(edge.from);
                if (now != projected.results.end() && now->second.status == Status::Cancelled)
                    n.cancelledAfter.push_back(edge.from);
            }
        }
        if (n.before != Status::Queued || n.after != Status::Queued)
            report.nodes.push_back(std::move(n));
    }
    for (const auto& span : m_stored.spans)
        if (span.kind == SpanKind::Attempt && (span.status == Status::Cancelled || span.status == Status::Timeout))
            ++report.cutShortCalls;
    for (const auto& span : projected.spans) {
        if (span.kind != SpanKind::Attempt)
            continue;
        if (ReplayNote::marks(span.note))
            ++report.replayedCalls;
        else if (span.status == Status::Cancelled || span.status == Status::Timeout)
            ++report.cutShortAgain; // the simulator's time was not reached: as recorded, or cut anew
        else
            ++report.simulatedCalls;
    }
    if (keep)
        *keep = std::move(*result);
    return report;
}

std::optional<SpeedupProfile> WhatIf::profile(std::string& error) const
{
    const SpeedupPlan plan(team(), SpeedupPlan::called(m_stored.spans), waitsRecorded());
    std::vector<ProjectionRuns::Job> jobs;
    for (const auto& changes : plan.changes()) {
        auto prepared = m_replay.prepared(changes, error);
        if (!prepared)
            return std::nullopt;
        jobs.push_back({std::move(prepared), &m_stored.summary.input, m_stored.summary.seed});
    }
    const auto walls = ProjectionRuns::walls(*m_engine, jobs, error);
    if (!walls)
        return std::nullopt;
    std::vector<std::vector<int64_t>> perChange;
    for (const auto wall : *walls)
        perChange.push_back({std::llround(double(wall) * m_replay.timeScale())});
    auto profile = plan.profile(perChange);
    profile.run = m_stored.summary.id.str();
    profile.team = m_stored.summary.teamName;
    return profile;
}

} // namespace conclave
