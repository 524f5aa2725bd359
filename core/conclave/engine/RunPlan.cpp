#include "conclave/engine/RunPlan.h"

#include <map>

#include "conclave/engine/StandardRouters.h"
#include "conclave/model/TeamGraph.h"

namespace conclave {

namespace {

std::optional<CallSettings> callSettings(const Team& team, const Node& node, const BackendName& fallbackBackend)
{
    const auto& c = node.config.call;
    const Defaults teamDefaults = team.defaults.value_or(Defaults{});
    const auto model = c.model ? c.model : teamDefaults.model;
    if (!model)
        return std::nullopt;
    CallSettings s;
    s.backend = c.backend.value_or(teamDefaults.backend.value_or(fallbackBackend));
    s.model = *model;
    s.fallbackModel = c.fallbackModel;
    s.system = c.system.value_or("");
    s.prompt = c.prompt;
    s.params = c.params.value_or(teamDefaults.params.value_or(ModelParams{}));
    s.timeoutMs = c.timeoutMs.value_or(teamDefaults.timeoutMs.value_or(defaults::kTimeoutMs));
    s.retries = static_cast<int>(c.retries.value_or(teamDefaults.retries.value_or(defaults::kRetries)));
    return s;
}

} // namespace

std::optional<size_t> RunPlan::indexOf(const NodeId& id) const
{
    const auto it = m_index.find(id);
    return it == m_index.end() ? std::nullopt : std::optional<size_t>(it->second);
}

std::shared_ptr<const RunPlan> RunPlan::make(const Team& team, std::string& error)
{
    // The engine's own behaviours; a strategy made above the engine (learned) gets none, which is no error
    // for a plan that is only read (cost bounds, provenance, audits) — a run of it fails that router.
    return make(team, error, [](const Node& router, std::string&) {
        std::string notHere;
        return StandardRouters::make(router, notHere);
    });
}

std::shared_ptr<const RunPlan> RunPlan::make(const Team& team, std::string& error, const RouterMaker& makeRouter)
{
    auto plan = std::shared_ptr<RunPlan>(new RunPlan());
    plan->m_team = team;
    const Team& t = plan->m_team;
    plan->m_nodes.resize(t.nodes.size());
    std::optional<size_t> input;
    std::optional<size_t> output;
    for (size_t i = 0; i < t.nodes.size(); ++i) {
        plan->m_nodes[i].node = &t.nodes[i];
        plan->m_index.emplace(t.nodes[i].id, i);
        if (t.nodes[i].kind == NodeKind::Input)
            input = i;
        if (t.nodes[i].kind == NodeKind::Output && !output)
            output = i;
    }
    if (!input || !output) {
        error = "the team needs an input and an output node";
        return nullptr;
    }
    plan->m_input = *input;
    plan->m_output = *output;
    for (size_t e = 0; e < t.edges.size(); ++e) {
        if (!plan->indexOf(t.edges[e].from) || !plan->indexOf(t.edges[e].to)) {
            error = "edge " + std::to_string(e) + " joins unknown nodes";
            return nullptr;
        }
    }
    const TeamGraph graph(t);
    for (size_t i = 0; i < graph.size(); ++i) {
        const NodeIndex node(i);
        auto& pn = plan->m_nodes[i];
        for (const auto& link : graph.in(node))
            pn.in.emplace_back(link.node, link.edge);
        for (const auto& link : graph.out(node))
            pn.out.emplace_back(link.node, link.edge);
        pn.members.assign(graph.members(node).begin(), graph.members(node).end());
        if (graph.isMember(node))
            pn.coordinator = graph.coordinators(node).back().node;
    }
    const BackendName onlyBackend = t.backends.size() == 1 ? t.backends.begin()->first : BackendName();
    std::map<std::pair<NodeKind, std::string>, int> sameRole;
    for (auto& pn : plan->m_nodes) {
        if (pn.node->kind == NodeKind::Input || pn.node->kind == NodeKind::Output)
            continue;
        pn.call = callSettings(t, *pn.node, onlyBackend);
        if (pn.node->kind == NodeKind::Router) {
            pn.router = makeRouter(*pn.node, error);
            if (!pn.router && !error.empty())
                return nullptr;
        }
        const int ordinal = sameRole[{pn.node->kind, pn.call->model}]++;
        pn.drawRole = std::string(toString(pn.node->kind)) + ":" + std::to_string(ordinal);
    }
    const auto defaultBackend = t.defaults && t.defaults->backend ? *t.defaults->backend : onlyBackend;
    const auto it = t.backends.find(defaultBackend);
    if (it != t.backends.end() && it->second.kind == BackendKind::LocalMoe)
        plan->m_timeScale = it->second.timeScale.value_or(1.0);
    return plan;
}

} // namespace conclave
