#include "conclave/whatif/WhatIf.h"

#include "conclave/io/TeamJson.h"
#include "conclave/replay/ReplayNote.h"
#include "conclave/session/Engine.h"
#include "conclave/store/RunQueries.h"

#include <algorithm>
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

} // namespace

std::optional<WhatIf> WhatIf::load(Engine& engine, RunQueries& reader, const std::filesystem::path& db,
                                   const std::string& runIdOrPrefix, std::string& error)
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
    WhatIf whatIf(engine, db, std::move(*stored), std::move(*loaded.team));
    whatIf.m_waitsRecorded =
        std::none_of(whatIf.m_stored.spans.begin(), whatIf.m_stored.spans.end(),
                     [](const Span& span) { return span.kind == SpanKind::Attempt && span.waitUs < 0; });
    whatIf.m_prepared = whatIf.prepare(whatIf.m_team, {}, error);
    if (!whatIf.m_prepared)
        return std::nullopt;
    return whatIf;
}

std::shared_ptr<const PreparedTeam> WhatIf::prepare(const Team& team, CallRetiming retime, std::string& error) const
{
    const auto& id = m_stored.summary.id;
    auto prepared = m_engine->prepareReplay(team, id.str(), m_db, {}, std::move(retime));
    if (!prepared.team) {
        // The stored team names its files as written; they are read from the folder the command runs in.
        const bool relativeFile = std::any_of(team.backends.begin(), team.backends.end(), [](const auto& entry) {
            return entry.second.modelsFile && std::filesystem::path(*entry.second.modelsFile).is_relative();
        });
        error = "run " + id.str() + ": its team cannot be prepared: " + prepared.error +
                (relativeFile ? " (a relative models_file is read from the folder the command runs in: run it from "
                                "the team file's folder)"
                              : "");
    }
    return prepared.team;
}

std::optional<RunResult> WhatIf::projection(const WhatIfChanges& changes, std::string& error) const
{
    const auto& summary = m_stored.summary;
    for (const auto& [node, change] : changes.speeds.byNode())
        if (!m_team.findNode(node)) {
            error = "--speed " + node.str() + ": no node \"" + node.str() + "\" in the team of run " +
                    summary.id.str();
            return std::nullopt;
        }
    std::shared_ptr<const PreparedTeam> prepared;
    if (changes.maxConcurrency.empty()) {
        auto retimed = std::make_shared<PreparedTeam>(*m_prepared);
        retimed->retime = changes.speeds.retiming();
        prepared = std::move(retimed);
    } else {
        Team team = m_team;
        for (const auto& [name, limit] : changes.maxConcurrency) {
            const auto block = team.backends.find(name);
            if (block == team.backends.end()) {
                error = "--backend " + name.str() + ": no backend \"" + name.str() + "\" in the team of run " +
                        summary.id.str();
                return std::nullopt;
            }
            block->second.maxConcurrency = limit;
        }
        if (!m_waitsRecorded) {
            error = "run " + summary.id.str() + ": queue waits not recorded: concurrency what-ifs unavailable";
            return std::nullopt;
        }
        prepared = prepare(team, changes.speeds.retiming(), error);
        if (!prepared)
            return std::nullopt;
    }
    auto started = m_engine->start(*prepared, summary.input,
                                   Engine::StartOptions{summary.seed, {}, ClockRequest::Virtual, {}, {}});
    if (!started.run) {
        error = started.error;
        return std::nullopt;
    }
    return started.run->wait();
}

std::optional<WhatIfReport> WhatIf::project(const WhatIfChanges& changes, std::string& error) const
{
    const auto result = projection(changes, error);
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
    for (const auto& [name, limit] : changes.maxConcurrency) {
        const auto was = m_team.backends.at(name).maxConcurrency;
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
    for (const auto& node : m_team.nodes) {
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
    for (const auto& span : m_stored.spans)
        if (span.kind == SpanKind::Attempt && (span.status == Status::Cancelled || span.status == Status::Timeout))
            ++report.cutShortCalls;
    for (const auto& span : projected.spans)
        if (span.kind == SpanKind::Attempt)
            ++(ReplayNote::marks(span.note) ? report.replayedCalls : report.otherCalls);
    return report;
}

std::optional<SpeedupProfile> WhatIf::profile(std::string& error) const
{
    SpeedupProfile profile;
    profile.run = m_stored.summary.id.str();
    profile.team = m_stored.summary.teamName;
    const auto unchanged = projection({}, error);
    if (!unchanged)
        return std::nullopt;
    profile.wallUs = unchanged->wallUs;
    // The agents: every node of the team that called a model in the run, in team order.
    std::set<NodeId> called;
    for (const auto& span : m_stored.spans)
        if (span.kind == SpanKind::Attempt)
            called.insert(span.node);
    for (const auto& node : m_team.nodes) {
        if (!called.count(node.id))
            continue;
        SpeedupProfile::Row row;
        row.node = node.id;
        for (size_t level = 0; level < SpeedupProfile::kPercents.size(); ++level) {
            WhatIfChanges faster;
            faster.speeds.set(node.id, LatencyChange::faster(SpeedupProfile::kPercents[level]));
            const auto projected = projection(faster, error);
            if (!projected)
                return std::nullopt;
            row.wallUs[level] = projected->wallUs;
        }
        profile.rows.push_back(std::move(row));
    }
    std::stable_sort(profile.rows.begin(), profile.rows.end(), [&](const auto& a, const auto& b) {
        return profile.savedUs(a, 2) > profile.savedUs(b, 2);
    });
    // Each backend that limits its calls in flight, that limit doubled (when the run recorded its queue waits).
    for (const auto& [name, block] : m_team.backends) {
        if (!block.maxConcurrency || !m_waitsRecorded)
            continue;
        WhatIfChanges doubled;
        doubled.maxConcurrency[name] = 2 * *block.maxConcurrency;
        const auto projected = projection(doubled, error);
        if (!projected)
            return std::nullopt;
        profile.backends.push_back({name, *block.maxConcurrency, 2 * *block.maxConcurrency, projected->wallUs});
    }
    return profile;
}

} // namespace conclave
