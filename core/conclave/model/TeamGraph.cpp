#include "conclave/model/TeamGraph.h"

#include <algorithm>
#include <deque>
#include <map>
#include <set>

namespace conclave {

TeamGraph::TeamGraph(const Team& team, const EdgeFilter& include)
{
    const size_t n = team.nodes.size();
    m_ids.reserve(n);
    for (size_t i = 0; i < n; ++i) {
        m_ids.push_back(team.nodes[i].id);
        m_index.emplace(team.nodes[i].id, i); // a duplicate id names its first node
    }
    m_in.resize(n);
    m_out.resize(n);
    m_members.resize(n);
    m_coordinators.resize(n);
    for (size_t e = 0; e < team.edges.size(); ++e) {
        const auto& edge = team.edges[e];
        const auto from = indexOf(edge.from);
        const auto to = indexOf(edge.to);
        if (!from || !to || (include && !include(EdgeIndex(e))))
            continue;
        m_ends.emplace_back(*from, *to);
        if (edge.isMember()) {
            m_members[*from].push_back(*to);
            m_coordinators[*to].push_back({*from, EdgeIndex(e)});
        } else {
            m_out[*from].push_back({*to, EdgeIndex(e)});
            m_in[*to].push_back({*from, EdgeIndex(e)});
        }
    }
}

std::optional<NodeIndex> TeamGraph::indexOf(const NodeId& id) const
{
    const auto it = m_index.find(id);
    return it == m_index.end() ? std::nullopt : std::optional<NodeIndex>(NodeIndex(it->second));
}

size_t TeamGraph::sourceCount(NodeIndex node) const
{
    std::set<size_t> sources;
    for (const auto& link : m_in[node])
        sources.insert(link.node);
    return sources.size();
}

std::vector<std::pair<NodeIndex, NodeIndex>> TeamGraph::edgeEnds() const
{
    return m_ends;
}

namespace {

// Kahn's algorithm over the flow; what keeps an in-degree above zero sits on or behind a cycle.
std::vector<size_t> remainingInDegrees(const TeamGraph& graph, std::vector<NodeIndex>* order)
{
    const size_t n = graph.size();
    std::vector<size_t> indegree(n, 0);
    for (size_t i = 0; i < n; ++i)
        indegree[i] = graph.in(NodeIndex(i)).size();
    std::vector<size_t> ready;
    for (size_t i = n; i-- > 0;) {
        if (indegree[i] == 0)
            ready.push_back(i);
    }
    while (!ready.empty()) {
        const size_t i = ready.back();
        ready.pop_back();
        if (order)
            order->push_back(NodeIndex(i));
        const auto& out = graph.out(NodeIndex(i));
        for (auto it = out.rbegin(); it != out.rend(); ++it) {
            if (--indegree[it->node] == 0)
                ready.push_back(it->node);
        }
    }
    return indegree;
}

} // namespace

std::optional<std::vector<NodeIndex>> TeamGraph::topologicalOrder() const
{
    std::vector<NodeIndex> order;
    order.reserve(size());
    remainingInDegrees(*this, &order);
    if (order.size() != size())
        return std::nullopt;
    return order;
}

TeamGraph::Cycle TeamGraph::cycle() const
{
    const auto indegree = remainingInDegrees(*this, nullptr);
    const auto left = std::find_if(indegree.begin(), indegree.end(), [](size_t d) { return d > 0; });
    if (left == indegree.end())
        return {};
    // Walk backwards from a node left on a cycle until a node repeats.
    size_t cur = size_t(left - indegree.begin());
    std::vector<size_t> path;
    std::map<size_t, size_t> at;
    while (!at.contains(cur)) {
        at[cur] = path.size();
        path.push_back(cur);
        for (const auto& link : m_in[cur]) {
            if (indegree[link.node] > 0) {
                cur = link.node;
                break;
            }
        }
    }
    Cycle cycle;
    for (auto i = path.begin() + static_cast<std::ptrdiff_t>(at[cur]); i != path.end(); ++i)
        cycle.nodes.push_back(NodeIndex(*i));
    std::reverse(cycle.nodes.begin(), cycle.nodes.end());
    // Named from its first node in node order, whichever node the walk began at.
    std::rotate(cycle.nodes.begin(),
                std::min_element(cycle.nodes.begin(), cycle.nodes.end(),
                                 [](NodeIndex a, NodeIndex b) { return a.value() < b.value(); }),
                cycle.nodes.end());
    for (const auto& link : m_out[cycle.nodes.back()]) {
        if (link.node == cycle.nodes.front()) {
            cycle.closing = link.edge;
            break;
        }
    }
    return cycle;
}

TeamGraph::Cycle TeamGraph::memberCycle(NodeIndex node) const
{
    // Breadth first upwards, from a member to the coordinators holding it, until one is held by `node`.
    std::vector<std::optional<Link>> holds(size()); // holds[c]: the member c holds on the way back down, and the edge
    std::vector<bool> seen(size(), false);
    std::deque<size_t> queue{node};
    seen[node] = true;
    while (!queue.empty()) {
        const size_t cur = queue.front();
        queue.pop_front();
        for (const auto& holder : m_coordinators[cur]) {
            if (holder.node != node) {
                if (!seen[holder.node]) {
                    seen[holder.node] = true;
                    holds[holder.node] = Link{NodeIndex(cur), holder.edge};
                    queue.push_back(holder.node);
                }
                continue;
            }
            // Downwards: node holds cur, cur holds ..., which holds node; edges[k] from down[k] to the next.
            std::vector<NodeIndex> down{node};
            std::vector<EdgeIndex> edges{holder.edge};
            for (size_t at = cur; at != node; at = holds[at]->node) {
                down.push_back(NodeIndex(at));
                edges.push_back(holds[at]->edge);
            }
            // Named from its first node in node order; closed by the edge into that node.
            const size_t first =
                size_t(std::min_element(down.begin(), down.end(),
                                        [](NodeIndex a, NodeIndex b) { return a.value() < b.value(); }) -
                       down.begin());
            Cycle cycle;
            for (size_t k = 0; k < down.size(); ++k)
                cycle.nodes.push_back(down[(first + k) % down.size()]);
            cycle.closing = edges[(first + down.size() - 1) % down.size()];
            return cycle;
        }
    }
    return {};
}

std::vector<bool> TeamGraph::upstreamOf(NodeIndex node) const
{
    std::vector<bool> seen(size(), false);
    std::vector<bool> climbed(size(), false); // coordinators whose view is already taken in
    std::vector<bool> upstream(size(), false);
    std::vector<size_t> stack;
    const auto push = [&](size_t j) {
        if (!seen[j]) {
            seen[j] = true;
            stack.push_back(j);
        }
    };
    // A member speaks while its coordinator is still running: it sees what the
    // coordinator sees, but not the coordinator's own result. A member meeting's
    // coordinator sees what its own coordinator sees, so climb the whole chain
    // (once per coordinator: a circle of meetings ends the climb).
    const auto takeInViewOf = [&](size_t member) {
        std::vector<size_t> holders{member};
        while (!holders.empty()) {
            const size_t h = holders.back();
            holders.pop_back();
            for (const auto& coordinator : m_coordinators[h]) {
                if (climbed[coordinator.node])
                    continue;
                climbed[coordinator.node] = true;
                for (const auto& link : m_in[coordinator.node])
                    push(link.node);
                holders.push_back(coordinator.node);
            }
        }
    };
    push(node);
    while (!stack.empty()) {
        const size_t j = stack.back();
        stack.pop_back();
        if (j != node)
            upstream[j] = true;
        for (const auto& link : m_in[j])
            push(link.node);
        takeInViewOf(j);
    }
    return upstream;
}

std::vector<bool> TeamGraph::reachableFrom(NodeIndex from) const
{
    std::vector<bool> reached(size(), false);
    std::vector<size_t> stack{from};
    reached[from] = true;
    const auto visit = [&](size_t to) {
        if (!reached[to]) {
            reached[to] = true;
            stack.push_back(to);
        }
    };
    while (!stack.empty()) {
        const size_t i = stack.back();
        stack.pop_back();
        for (const auto& link : m_out[i])
            visit(link.node);
        for (const NodeIndex member : m_members[i])
            visit(member);
    }
    return reached;
}

std::vector<NodeIndex> TeamGraph::shortestPath(NodeIndex from, NodeIndex to) const
{
    std::vector<std::optional<size_t>> parent(size());
    std::deque<size_t> queue{from};
    parent[from] = from;
    while (!queue.empty()) {
        const size_t cur = queue.front();
        queue.pop_front();
        if (cur == to) {
            std::vector<NodeIndex> result{NodeIndex(cur)};
            for (size_t at = cur; at != from;) {
                at = *parent[at];
                result.push_back(NodeIndex(at));
            }
            std::reverse(result.begin(), result.end());
            return result;
        }
        for (const auto& link : m_out[cur]) {
            if (!parent[link.node]) {
                parent[link.node] = cur;
                queue.push_back(link.node);
            }
        }
    }
    return {};
}

} // namespace conclave
