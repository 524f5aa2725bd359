#pragma once

#include "conclave/model/Team.h"

#include <cstddef>
#include <functional>
#include <optional>
#include <unordered_map>
#include <vector>

namespace conclave {

// A position in a team's node or edge list. Made only on purpose (explicit),
// so a node index is never passed where an edge index is meant; reads as a
// plain index wherever a vector is indexed.
template <class Tag> class GraphIndex {
public:
    constexpr explicit GraphIndex(size_t value) : m_value(value) {}
    constexpr operator size_t() const { return m_value; } // NOLINT(google-explicit-constructor)
    constexpr size_t value() const { return m_value; }

private:
    size_t m_value;
};

using NodeIndex = GraphIndex<struct NodeIndexTag>;
using EdgeIndex = GraphIndex<struct EdgeIndexTag>;

// The one home of a team's graph: the node index and the adjacency, built
// once from a Team, with the walks every part of Conclave needs (topological
// order, the cycle a team has, ancestors, reachability, shortest paths).
//
// Promises: it never changes the team and holds no pointer into it; it works
// on any team, valid or not (an edge naming an unknown node is left out, and
// a caller may leave out more with a filter); lists keep the team's edge
// order, so every walk names the same nodes in the same order every time.
// Ordinary edges make the flow (in, out); member edges make meetings
// (members, coordinators): walks over the flow never follow member edges.
class TeamGraph {
public:
    struct Link {
        NodeIndex node; // the node at the other end
        EdgeIndex edge;
    };
    // Decides which edges count; all edges with known ends when empty.
    using EdgeFilter = std::function<bool(EdgeIndex)>;

    explicit TeamGraph(const Team& team, const EdgeFilter& include = {});

    size_t size() const { return m_in.size(); }
    std::optional<NodeIndex> indexOf(const NodeId& id) const;
    const NodeId& idOf(NodeIndex node) const { return m_ids[node]; }

    // Ordinary edges into and out of a node, in edge order.
    const std::vector<Link>& in(NodeIndex node) const { return m_in[node]; }
    const std::vector<Link>& out(NodeIndex node) const { return m_out[node]; }
    // How many different nodes feed this one (a router reaching it under two labels counts once).
    size_t sourceCount(NodeIndex node) const;
    // A coordinator's members, in edge order; the member edges into a node (one, in a valid team).
    const std::vector<NodeIndex>& members(NodeIndex node) const { return m_members[node]; }
    const std::vector<Link>& coordinators(NodeIndex node) const { return m_coordinators[node]; }
    bool isMember(NodeIndex node) const { return !m_coordinators[node].empty(); }
    // Every counted edge, ordinary or member, as (from, to), in edge order.
    std::vector<std::pair<NodeIndex, NodeIndex>> edgeEnds() const;

    // The nodes in an order where every ordinary edge goes forward (Kahn's
    // algorithm; the same order every time); nullopt when there is a cycle.
    std::optional<std::vector<NodeIndex>> topologicalOrder() const;
    // A cycle over ordinary edges, named from its first node in node order,
    // with the edge that closes it (from its last node back to its first); empty when none.
    struct Cycle {
        std::vector<NodeIndex> nodes;
        std::optional<EdgeIndex> closing;
    };
    Cycle cycle() const;
    // A shortest circle of coordinators through `node` that hold one another
    // as members (a holds b holds ... holds a; a coordinator holding itself is
    // one), found breadth first from `node` up its coordinators in edge order;
    // named downwards from its first node in node order, holder before member,
    // with the member edge that closes it (from its last node back to its
    // first). Empty when `node` is on no such circle, also when it only leads into one.
    Cycle memberCycle(NodeIndex node) const;
    // Ancestors over ordinary edges; a member also sees what its coordinator
    // sees (the coordinator's ancestors, and a member meeting's its own
    // coordinator's, however deep), but not the coordinators themselves.
    std::vector<bool> upstreamOf(NodeIndex node) const;
    // What can be reached from `from` over ordinary edges and from a coordinator to its members.
    std::vector<bool> reachableFrom(NodeIndex from) const;
    // The nodes on a shortest path from `from` to `to` over ordinary edges
    // (both ends included; breadth first in edge order), or empty when there is none.
    std::vector<NodeIndex> shortestPath(NodeIndex from, NodeIndex to) const;

private:
    std::vector<NodeId> m_ids;
    std::unordered_map<NodeId, size_t> m_index;
    std::vector<std::vector<Link>> m_in;
    std::vector<std::vector<Link>> m_out;
    std::vector<std::vector<NodeIndex>> m_members;
    std::vector<std::vector<Link>> m_coordinators;
    std::vector<std::pair<NodeIndex, NodeIndex>> m_ends; // every counted edge, in edge order
};

} // namespace conclave
