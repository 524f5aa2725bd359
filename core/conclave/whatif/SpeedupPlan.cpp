#include "conclave/whatif/SpeedupPlan.h"

#include "conclave/analysis/Quantile.h"

#include <algorithm>
#include <cmath>

namespace conclave {

namespace {

SpeedupProfile::Wall quantiles(const std::vector<int64_t>& walls)
{
    std::vector<double> sorted(walls.begin(), walls.end());
    std::sort(sorted.begin(), sorted.end());
    return {std::llround(Quantile::of(sorted, 0.5)), std::llround(Quantile::of(sorted, 0.95))};
}

} // namespace

std::set<NodeId> SpeedupPlan::called(const std::vector<Span>& spans)
{
    std::set<NodeId> out;
    for (const auto& span : spans)
        if (span.kind == SpanKind::Attempt)
            out.insert(span.node);
    return out;
}

SpeedupPlan::SpeedupPlan(const Team& team, const std::set<NodeId>& called, bool waitsRecorded)
{
    m_changes.emplace_back();
    for (const auto& node : team.nodes) {
        if (!called.count(node.id))
            continue;
        m_agents.push_back(node.id);
        for (const int percent : SpeedupProfile::kPercents) {
            WhatIfChanges faster;
            faster.speeds.set(node.id, LatencyChange::faster(percent));
            m_changes.push_back(std::move(faster));
        }
    }
    for (const auto& [name, block] : team.backends) {
        if (!block.maxConcurrency || !waitsRecorded)
            continue;
        m_backends.emplace_back(name, *block.maxConcurrency);
        WhatIfChanges doubled;
        doubled.maxConcurrency[name] = 2 * *block.maxConcurrency;
        m_changes.push_back(std::move(doubled));
    }
}

SpeedupProfile SpeedupPlan::profile(const std::vector<std::vector<int64_t>>& walls) const
{
    SpeedupProfile profile;
    profile.trials = int64_t(walls.front().size());
    profile.wall = quantiles(walls[0]);
    size_t c = 1;
    for (const auto& agent : m_agents) {
        SpeedupProfile::Row row;
        row.node = agent;
        for (size_t level = 0; level < SpeedupProfile::kPercents.size(); ++level)
            row.wall[level] = quantiles(walls[c++]);
        profile.rows.push_back(std::move(row));
    }
    std::stable_sort(profile.rows.begin(), profile.rows.end(), [&](const auto& a, const auto& b) {
        return profile.savedUs(a, 2) > profile.savedUs(b, 2);
    });
    for (const auto& [name, limit] : m_backends)
        profile.backends.push_back({name, limit, 2 * limit, quantiles(walls[c++])});
    return profile;
}

} // namespace conclave
