#include "conclave/whatif/WhatIf.h"

#include "conclave/io/TeamJson.h"
#include "conclave/replay/ReplayNote.h"
#include "conclave/session/Engine.h"
#include "conclave/store/RunQueries.h"

#include <algorithm>
#include <map>

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

} // namespace

std::optional<WhatIfReport> WhatIf::project(Engine& engine, RunQueries& reader, const std::filesystem::path& db,
                                            const std::string& runIdOrPrefix, const SpeedChanges& speeds,
                                            std::string& error)
{
    const auto id = reader.resolve(runIdOrPrefix, error);
    if (!id)
        return std::nullopt;
    const auto stored = reader.load(*id, false, error);
    if (!stored)
        return std::nullopt;
    const auto& summary = stored->summary;
    if (summary.status == RunStatus::Running || summary.status == RunStatus::Interrupted) {
        error = "run " + id->str() + " is " + std::string(toString(summary.status)) +
                ": a what-if re-runs a run that has ended";
        return std::nullopt;
    }
    const auto loaded = teamFromJsonText(stored->teamJson);
    if (!loaded.team) {
        error = "run " + id->str() + ": its stored team cannot be read";
        return std::nullopt;
    }
    const Team& team = *loaded.team;
    for (const auto& [node, change] : speeds.byNode())
        if (!team.findNode(node)) {
            error = "--speed " + node.str() + ": no node \"" + node.str() + "\" in the team of run " + id->str();
            return std::nullopt;
        }

    const auto prepared = engine.prepareReplay(team, id->str(), db, {}, speeds.retiming());
    if (!prepared.team) {
        error = prepared.error;
        return std::nullopt;
    }
    auto started = engine.start(*prepared.team, summary.input,
                                Engine::StartOptions{summary.seed, {}, ClockRequest::Virtual, {}, {}});
    if (!started.run) {
        error = started.error;
        return std::nullopt;
    }
    const RunResult projected = started.run->wait();

    WhatIfReport report;
    report.run = id->str();
    report.team = summary.teamName;
    report.clock = summary.clock;
    for (const auto& [node, change] : speeds.byNode())
        report.changes.push_back(node.str() + ": " + change.text());
    report.statusBefore = summary.status;
    report.statusAfter = projected.status;
    report.wallBefore = summary.wallUs;
    report.wallAfter = projected.wallUs;
    report.costBefore = summary.costUsd;
    report.costAfter = projected.costUsd;
    report.answerBefore = stored->output.answer;
    report.answerAfter = projected.output.answer;
    report.pathBefore = stored->criticalPath;
    report.pathAfter = projected.criticalPath.nodes;
    const auto before = nodeSpans(stored->spans);
    const auto after = nodeSpans(projected.spans);
    std::map<NodeId, const StoredNode*> storedNodes;
    for (const auto& n : stored->nodes)
        storedNodes[n.node] = &n;
    for (const auto& node : team.nodes) {
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
        if (n.before != Status::Queued || n.after != Status::Queued)
            report.nodes.push_back(std::move(n));
    }
    for (const auto& span : stored->spans)
        if (span.kind == SpanKind::Attempt && (span.status == Status::Cancelled || span.status == Status::Timeout))
            ++report.cutShortCalls;
    for (const auto& span : projected.spans)
        if (span.kind == SpanKind::Attempt)
            ++(ReplayNote::marks(span.note) ? report.replayedCalls : report.otherCalls);
    return report;
}

} // namespace conclave
