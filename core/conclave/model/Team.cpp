#include "conclave/model/Team.h"

#include "conclave/model/RouterStrategies.h"

#include <algorithm>

namespace conclave {

std::optional<size_t> Team::indexOf(const NodeId& id) const
{
    const auto it = std::find_if(nodes.begin(), nodes.end(), [&](const Node& n) { return n.id == id; });
    if (it == nodes.end())
        return std::nullopt;
    return static_cast<size_t>(it - nodes.begin());
}

const Node* Team::findNode(const NodeId& id) const
{
    const auto index = indexOf(id);
    return index ? &nodes[*index] : nullptr;
}

Node* Team::findNode(const NodeId& id)
{
    const auto index = indexOf(id);
    return index ? &nodes[*index] : nullptr;
}

namespace {

int64_t versionOfFields(const Team& team)
{
    for (const auto& n : team.nodes) {
        if (n.config.maxSubtasks || n.config.scorer)
            return 3;
    }
    for (const auto& [name, backend] : team.backends) {
        if (backend.kind == BackendKind::Recorded)
            return 3;
        if (backend.kind == BackendKind::LocalMoe && (backend.maxConcurrency || backend.backgroundInflight))
            return 3;
        if (backend.kind == BackendKind::OpenAi && backend.modelsFile)
            return 3;
        if (backend.models) {
            for (const auto& [model, profile] : *backend.models) {
                if (profile.usesFormat2Fields())
                    return 3;
            }
        }
    }
    for (const auto& n : team.nodes) {
        const auto& c = n.config;
        if (c.skipWhenAgree || c.agreeFraction || c.initial || c.mode == CoordinatorMode::Adaptive)
            return 2;
    }
    // A meeting with a meeting among its members.
    for (const auto& e : team.edges) {
        if (!e.isMember())
            continue;
        const Node* member = team.findNode(e.to);
        if (member && member->kind == NodeKind::Coordinator)
            return 2;
    }
    return 1;
}

} // namespace

int64_t formatVersionNeeded(const Team& team)
{
    int64_t version = versionOfFields(team);
    for (const auto& n : team.nodes) {
        if (n.kind == NodeKind::Router && n.config.routerStrategy)
            version = std::max(version, RouterStrategies::of(*n.config.routerStrategy).formatVersion);
    }
    return version;
}

} // namespace conclave
