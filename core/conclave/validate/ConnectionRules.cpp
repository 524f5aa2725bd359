#include "conclave/validate/ConnectionRules.h"

#include "conclave/model/RouterStrategies.h"

#include "conclave/io/JsonText.h"
#include "conclave/model/TeamGraph.h"

#include <algorithm>
#include <map>
#include <set>

namespace conclave {

namespace {

std::string quoted(const NodeId& id)
{
    return describeJsonValue(id.str());
}

bool hasEdge(const Team& team, auto&& predicate)
{
    return std::any_of(team.edges.begin(), team.edges.end(), predicate);
}

std::optional<std::string> memberRefusal(const Team& team, const Node& from, const Node& to)
{
    if (const auto kind = ConnectionRules::memberKindRefusal(from, to))
        return kind;
    const std::string what = std::string(toString(to.kind)) + ' ' + quoted(to.id);
    for (const auto& e : team.edges) {
        if (e.isMember() && e.to == to.id) {
            return e.from == from.id ? what + " is already a member of " + quoted(from.id)
                                     : what + " is already a member of coordinator " + quoted(e.from);
        }
    }
    if (hasEdge(team, [&](const Edge& e) { return !e.isMember() && (e.from == to.id || e.to == to.id); }))
        return what + " has ordinary edges, so it cannot be a coordinator's member";
    // The validator's words for the circle the new edge would close, if any: a
    // member meeting that holds `from`, however deep, would hold its holder.
    if (to.kind == NodeKind::Coordinator) {
        Team next = team;
        next.edges.push_back({from.id, to.id, std::nullopt, EdgeRole::Member, {}});
        const TeamGraph graph(next);
        if (const auto cycle = graph.memberCycle(*graph.indexOf(to.id)); !cycle.nodes.empty())
            return ConnectionRules::memberCycleMessage(graph, cycle);
    }
    return std::nullopt;
}

} // namespace

std::vector<NodeId> ConnectionRules::path(const Team& team, const NodeId& from, const NodeId& to)
{
    const TeamGraph graph(team);
    const auto a = graph.indexOf(from);
    const auto b = graph.indexOf(to);
    if (!a || !b)
        return {};
    std::vector<NodeId> ids;
    for (const NodeIndex i : graph.shortestPath(*a, *b))
        ids.push_back(graph.idOf(i));
    return ids;
}

std::optional<std::string> ConnectionRules::refusal(const Team& team, const NodeId& fromId, const NodeId& toId,
                                                    EdgeRole role)
{
    const Node* from = team.findNode(fromId);
    const Node* to = team.findNode(toId);
    if (!from)
        return "unknown node " + quoted(fromId);
    if (!to)
        return "unknown node " + quoted(toId);
    if (fromId == toId)
        return "a node cannot be connected to itself";
    if (role == EdgeRole::Member)
        return memberRefusal(team, *from, *to);

    if (from->kind == NodeKind::Output)
        return "an output node cannot have outgoing edges";
    if (to->kind == NodeKind::Input)
        return "the input node cannot have incoming edges";
    const auto isMemberOf = [&](const NodeId& id) {
        return hasEdge(team, [&](const Edge& e) { return e.isMember() && e.to == id; });
    };
    if (isMemberOf(fromId))
        return std::string(toString(from->kind)) + ' ' + quoted(fromId) +
               " is a coordinator's member, so it cannot also have ordinary edges";
    if (isMemberOf(toId))
        return std::string(toString(to->kind)) + ' ' + quoted(toId) +
               " is a coordinator's member, so it cannot also have ordinary edges";
    if (to->kind == NodeKind::Output &&
        hasEdge(team, [&](const Edge& e) { return !e.isMember() && e.to == toId && !(e.from == fromId); }))
        return "an output node takes exactly one incoming edge; " + quoted(toId) + " already has one";
    // A labelling router may reach one target under several route labels; anything else once.
    if (!needsRouteLabel(*from) &&
        hasEdge(team, [&](const Edge& e) { return !e.isMember() && e.from == fromId && e.to == toId; }))
        return "there is already an edge from " + quoted(fromId) + " to " + quoted(toId);
    const auto back = path(team, toId, fromId);
    if (!back.empty()) {
        std::string text;
        for (const auto& id : back)
            text += id.str() + " -> ";
        return "the edge would make a cycle: " + text + toId.str();
    }
    return std::nullopt;
}

bool ConnectionRules::holdsMeetings(CoordinatorMode mode)
{
    return mode == CoordinatorMode::Cascade || mode == CoordinatorMode::Adaptive;
}

std::optional<std::string> ConnectionRules::memberKindRefusal(const Node& coordinator, const Node& member)
{
    if (coordinator.kind != NodeKind::Coordinator)
        return "a member edge must start at a coordinator; " + quoted(coordinator.id) + " is " +
               kindWithArticle(coordinator.kind);
    if (member.kind == NodeKind::Expert)
        return std::nullopt;
    if (member.kind != NodeKind::Coordinator)
        return "a coordinator's members must be experts or coordinators; " + quoted(member.id) + " is " +
               kindWithArticle(member.kind);
    const auto mode = coordinator.config.mode.value_or(CoordinatorMode::RoundRobin);
    if (!holdsMeetings(mode))
        return "coordinator " + quoted(member.id) + " cannot be a member of " + quoted(coordinator.id) +
               ": only a cascade or adaptive coordinator may have a coordinator as a member (" +
               quoted(coordinator.id) + " is " + withArticle(toString(mode)) + ")";
    return std::nullopt;
}

std::string ConnectionRules::memberCycleMessage(const TeamGraph& graph, const TeamGraph::Cycle& cycle)
{
    std::string text;
    for (const NodeIndex i : cycle.nodes)
        text += graph.idOf(i).str() + " -> ";
    const NodeId& first = graph.idOf(cycle.nodes.front());
    return "coordinator " + quoted(first) + " reaches itself through its members: " + text + first.str();
}

bool ConnectionRules::needsRouteLabel(const Node& from)
{
    if (from.kind != NodeKind::Router)
        return false;
    const auto& strategy = from.config.routerStrategy;
    return !strategy || RouterStrategies::of(*strategy).labelsEdges;
}

std::string ConnectionRules::newRouteLabel(const Team& team, const NodeId& from, const NodeId& to)
{
    std::set<std::string> used;
    for (const auto& e : team.edges) {
        if (e.from == from && e.when)
            used.insert(*e.when);
    }
    std::string label = to.str();
    for (int n = 2; used.contains(label); ++n)
        label = to.str() + '_' + std::to_string(n);
    return label;
}

} // namespace conclave
