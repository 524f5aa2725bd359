#include "conclave/engine/RunPlan.h"

namespace conclave {

namespace {

std::optional<CallSettings> callSettings(const Team& team, const Node& node, const BackendName& fallbackBackend)
{
    const auto& c = node.config.call;
    const Defaults defaults = team.defaults.value_or(Defaults{});
    const auto model = c.model ? c.model : defaults.model;
    if (!model)
        return std::nullopt;
    CallSettings s;
    s.backend = c.backend.value_or(defaults.backend.value_or(fallbackBackend));
    s.model = *model;
    s.fallbackModel = c.fallbackModel;
    s.system = c.system.value_or("");
    s.prompt = c.prompt;
    s.params = c.params.value_or(defaults.params.value_or(ModelParams{}));
    s.timeoutMs = c.timeoutMs.value_or(defaults.timeoutMs.value_or(30000));
    s.retries = static_cast<int>(c.retries.value_or(defaults.retries.value_or(2)));
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
        const auto& edge = t.edges[e];
        const auto from = plan->indexOf(edge.from);
        const auto to = plan->indexOf(edge.to);
        if (!from || !to) {
            error = "edge " + std::to_string(e) + " joins unknown nodes";
            return nullptr;
        }
        if (edge.isMember()) {
            plan->m_nodes[*from].members.push_back(*to);
            plan->m_nodes[*to].coordinator = *from;
        } else {
            plan->m_nodes[*from].out.emplace_back(*to, e);
            plan->m_nodes[*to].in.emplace_back(*from, e);
        }
    }
    const BackendName onlyBackend = t.backends.size() == 1 ? t.backends.begin()->first : BackendName();
    for (auto& pn : plan->m_nodes) {
        if (pn.node->kind != NodeKind::Input && pn.node->kind != NodeKind::Output)
            pn.call = callSettings(t, *pn.node, onlyBackend);
    }
    const auto defaultBackend =
        t.defaults && t.defaults->backend ? *t.defaults->backend : onlyBackend;
    const auto it = t.backends.find(defaultBackend);
    if (it != t.backends.end() && it->second.kind == BackendKind::LocalMoe)
        plan->m_timeScale = it->second.timeScale.value_or(1.0);
    return plan;
}

} // namespace conclave
