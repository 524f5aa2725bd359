#include "conclave/validate/ConnectionRules.h"

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
    if (from.kind != NodeKind::Coordinator)
        return "a member edge must start at a coordinator; " + quoted(from.id) + " is " + kindWithArticle(from.kind);
    if (to.kind != NodeKind::Expert)
        return "a coordinator's members must be experts; " + quoted(to.id) + " is " + kindWithArticle(to.kind);
    for (const auto& e : team.edges) {
        if (e.isMember() && e.to == to.id) {
            return e.from == from.id
                       ? "expert " + quoted(to.id) + " is already a member of " + quoted(from.id)
                       : "expert " + quoted(to.id) + " is already a member of coordinator " + quoted(e.from);
        }
    }
    if (hasEdge(team, [&](const Edge& e) { return !e.isMember() && (e.from == to.id || e.to == to.id); }))
        return "expert " + quoted(to.id) + " has ordinary edges, so it cannot be a coordinator's member";
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
        return "expert " + quoted(fromId) + " is a coordinator's member, so it cannot also have ordinary edges";
    if (isMemberOf(toId))
        return "expert " + quoted(toId) + " is a coordinator's member, so it cannot also have ordinary edges";
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

bool ConnectionRules::needsRouteLabel(const Node& from)
{
    return from.kind == NodeKind::Router && from.config.routerStrategy != RouterStrategy::All;
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
