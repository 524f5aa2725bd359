#include "conclave/validate/FieldChecks.h"

#include "conclave/io/JsonText.h"
#include "conclave/validate/ConnectionRules.h"

#include <algorithm>
#include <map>
#include <regex>
#include <set>
#include <tuple>
#include <unordered_map>

namespace conclave::checks {

namespace {

bool isValidIdChar(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' ||
           c == '.';
}

// User text goes into one-line messages printable and cut short.
std::string quoted(const NodeId& id) { return describeJsonValue(id.str()); }

// "1 route", "2 routes".
std::string counted(size_t count, const std::string& noun)
{
    return std::to_string(count) + ' ' + noun + (count == 1 ? "" : "s");
}

constexpr size_t kMaxRegexLength = 500;
constexpr long kMaxRepeatCount = 100;

// The largest n in "{n}", "{n,}" or "{n,m}" (m too) in a pattern.
long largestRepeatCount(std::string_view pattern)
{
    long largest = 0;
    long current = -1;
    for (const char c : pattern) {
        if (c == '{' || c == ',') {
            current = 0;
        } else if (c >= '0' && c <= '9' && current >= 0) {
            current = std::min<long>(current * 10 + (c - '0'), 1'000'000);
            largest = std::max(largest, current);
        } else {
            current = -1;
        }
    }
    return largest;
}

// The names inside {{...}} in a prompt template, trimmed. A plain scan: a
// regex engine could recurse once per character of a long prompt.
std::vector<std::string> placeholders(std::string_view text)
{
    std::vector<std::string> names;
    size_t pos = 0;
    while ((pos = text.find("{{", pos)) != std::string_view::npos) {
        const size_t end = text.find("}}", pos + 2);
        if (end == std::string_view::npos)
            break;
        auto name = text.substr(pos + 2, end - pos - 2);
        while (!name.empty() && name.front() == ' ')
            name.remove_prefix(1);
        while (!name.empty() && name.back() == ' ')
            name.remove_suffix(1);
        names.emplace_back(name);
        pos = end + 2;
    }
    return names;
}

class GraphChecker {
public:
    GraphChecker(const Team& team, ProblemSink& sink) : m_team(team), m_sink(sink) {}

    void run()
    {
        indexNodes();
        checkEdges();
        checkInputAndOutputs();
        checkKinds();
        checkCycles();
        checkReachability();
        checkTemplates();
    }

private:
    std::string nodePointer(size_t index) const { return childPointer("/nodes", index); }
    std::string edgePointer(size_t index) const { return childPointer("/edges", index); }
    const Node& node(size_t index) const { return m_team.nodes[index]; }

    void indexNodes()
    {
        m_in.resize(m_team.nodes.size());
        m_out.resize(m_team.nodes.size());
        m_membersOf.resize(m_team.nodes.size());
        m_memberIn.resize(m_team.nodes.size());
        for (size_t i = 0; i < m_team.nodes.size(); ++i) {
            const auto& id = node(i).id;
            if (id.empty()) {
                m_sink.error(childPointer(nodePointer(i), "id"), "a node needs a non-empty id");
            } else if (!std::all_of(id.str().begin(), id.str().end(), isValidIdChar)) {
                m_sink.error(childPointer(nodePointer(i), "id"),
                             "id " + quoted(id) + " may only use letters, digits, '_', '-' and '.'", id);
            }
            const auto [it, inserted] = m_index.emplace(id, i);
            if (!inserted)
                m_sink.error(childPointer(nodePointer(i), "id"),
                             "duplicate id " + quoted(id) + " (first used by " + nodePointer(it->second) + ")", id);
        }
    }

    void checkEdges()
    {
        // What makes two edges the same: a member edge differs from an ordinary one, and a
        // router's edges to one target under different labels are different routes, unless
        // the router broadcasts: then every edge fires and its labels choose nothing.
        using EdgeKey = std::tuple<size_t, size_t, bool, std::optional<std::string>>;
        std::set<EdgeKey> seen;
        for (size_t e = 0; e < m_team.edges.size(); ++e) {
            const auto& edge = m_team.edges[e];
            const auto from = m_index.find(edge.from);
            const auto to = m_index.find(edge.to);
            if (from == m_index.end())
                m_sink.error(childPointer(edgePointer(e), "from"), "unknown node " + quoted(edge.from), {}, e);
            if (to == m_index.end())
                m_sink.error(childPointer(edgePointer(e), "to"), "unknown node " + quoted(edge.to), {}, e);
            if (from == m_index.end() || to == m_index.end())
                continue;
            const size_t f = from->second;
            const size_t t = to->second;
            const bool routed = !edge.isMember() && node(f).kind == NodeKind::Router;
            const bool labelled = routed && ConnectionRules::needsRouteLabel(node(f));
            if (!seen.emplace(f, t, edge.isMember(), labelled ? edge.when : std::nullopt).second) {
                m_sink.warning(edgePointer(e), "duplicate edge from " + quoted(edge.from) + " to " + quoted(edge.to),
                               {}, e);
                continue;
            }
            // A broadcast router's edge may carry a label or not: it only names the route in the
            // router's answer, and it is kept for when the strategy changes to one that chooses.
            if (labelled) {
                if (!edge.when || edge.when->empty())
                    m_sink.error(childPointer(edgePointer(e), "when"),
                                 "an edge from router " + quoted(edge.from) + " needs a route label (when)", {}, e);
            } else if (edge.when && !routed) {
                m_sink.warning(childPointer(edgePointer(e), "when"),
                               "only edges from a router carry a route label; it is ignored", {}, e);
            }
            if (edge.isMember()) {
                if (node(f).kind != NodeKind::Coordinator) {
                    m_sink.error(childPointer(edgePointer(e), "role"),
                                 "a member edge must start at a coordinator; " + quoted(edge.from) + " is " +
                                     kindWithArticle(node(f).kind),
                                 {}, e);
                    continue;
                }
                if (node(t).kind != NodeKind::Expert) {
                    m_sink.error(childPointer(edgePointer(e), "role"),
                                 "a coordinator's members must be experts; " + quoted(edge.to) + " is " +
                                     kindWithArticle(node(t).kind),
                                 {}, e);
                    continue;
                }
                m_membersOf[f].push_back(t);
                m_memberIn[t].push_back(e);
                continue;
            }
            m_out[f].push_back({t, e});
            m_in[t].push_back({f, e});
        }
    }

    // Nodes with an ordinary edge into node i, each counted once: a router's
    // edges to one target under several labels still deliver one result.
    size_t sourcesOf(size_t i) const
    {
        std::set<size_t> sources;
        for (const auto& [from, e] : m_in[i])
            sources.insert(from);
        return sources.size();
    }

    void checkInputAndOutputs()
    {
        std::optional<size_t> input;
        bool anyOutput = false;
        for (size_t i = 0; i < m_team.nodes.size(); ++i) {
            if (node(i).kind == NodeKind::Output)
                anyOutput = true;
            if (node(i).kind != NodeKind::Input)
                continue;
            if (input) {
                m_sink.error(childPointer(nodePointer(i), "kind"),
                             "a second input node; a team has exactly one (the first is " + nodePointer(*input) + ")",
                             node(i).id);
                continue;
            }
            input = i;
        }
        if (!input)
            m_sink.error("/nodes", "the team has no input node");
        if (!anyOutput)
            m_sink.error("/nodes", "the team has no output node");
        m_input = input;
    }

    void checkKinds()
    {
        for (size_t i = 0; i < m_team.nodes.size(); ++i) {
            const auto& n = node(i);
            const auto pointer = nodePointer(i);
            const size_t ins = sourcesOf(i);
            const size_t outs = m_out[i].size();
            switch (n.kind) {
            case NodeKind::Input:
                if (ins > 0)
                    m_sink.error(pointer, "the input node cannot have incoming edges", n.id);
                break;
            case NodeKind::Output:
                if (ins != 1)
                    m_sink.error(pointer,
                                 "an output node needs exactly one incoming edge, has " + std::to_string(ins), n.id);
                if (outs > 0)
                    m_sink.error(pointer, "an output node cannot have outgoing edges", n.id);
                break;
            case NodeKind::Router:
                if (outs == 0)
                    m_sink.error(pointer, "router " + quoted(n.id) + " has no outgoing edges to route to", n.id);
                checkRoutes(i);
                break;
            case NodeKind::Aggregator:
                if (ins == 0)
                    m_sink.error(pointer, "aggregator " + quoted(n.id) + " has no inputs", n.id);
                // A quorum below 1 is a range error, reported with the fields.
                if (n.config.quorum && *n.config.quorum >= 1 && ins > 0 && static_cast<size_t>(*n.config.quorum) > ins)
                    m_sink.error(childPointer(pointer, "quorum"),
                                 "quorum " + std::to_string(*n.config.quorum) + " is more than the " +
                                     counted(ins, "input") + " of " + quoted(n.id),
                                 n.id);
                break;
            case NodeKind::Coordinator:
                if (m_membersOf[i].empty())
                    m_sink.error(pointer, "coordinator " + quoted(n.id) + " has no members (edges with role member)",
                                 n.id);
                break;
            case NodeKind::Expert:
                if (!m_memberIn[i].empty() && (ins > 0 || outs > 0))
                    m_sink.error(pointer,
                                 "expert " + quoted(n.id) +
                                     " is a coordinator's member, so it cannot also have ordinary edges",
                                 n.id);
                if (m_memberIn[i].size() > 1)
                    m_sink.error(childPointer(edgePointer(m_memberIn[i][1]), "to"),
                                 "expert " + quoted(n.id) + " is a member of more than one coordinator", n.id,
                                 m_memberIn[i][1]);
                break;
            }
            if (n.kind != NodeKind::Output && n.kind != NodeKind::Router && outs == 0 && m_memberIn[i].empty() &&
                n.kind != NodeKind::Input)
                m_sink.warning(pointer, quoted(n.id) + " has no outgoing edges; its result is not used", n.id);
            if (n.kind == NodeKind::Router && n.config.topK && *n.config.topK >= 1 && outs > 0 &&
                static_cast<size_t>(*n.config.topK) > outs)
                m_sink.warning(childPointer(pointer, "top_k"),
                               "top_k " + std::to_string(*n.config.topK) + " is more than the " +
                                   counted(outs, "route") + " of " + quoted(n.id),
                               n.id);
        }
    }

    void checkRoutes(size_t i)
    {
        const auto& n = node(i);
        const auto pointer = nodePointer(i);
        std::set<std::string> labels;
        for (const auto& [to, e] : m_out[i]) {
            // An empty label is already reported with its edge.
            if (m_team.edges[e].when && !m_team.edges[e].when->empty())
                labels.insert(*m_team.edges[e].when);
        }
        const auto& c = n.config;
        const auto checkDefault = [&] {
            if (c.defaultRoute && !labels.contains(*c.defaultRoute))
                m_sink.error(childPointer(pointer, "default"),
                             "default route \"" + *c.defaultRoute + "\" matches no edge label of " + quoted(n.id),
                             n.id);
        };
        if (c.routerStrategy != RouterStrategy::Keyword) {
            if (c.routes)
                m_sink.warning(childPointer(pointer, "routes"), "routes are used only by the keyword strategy", n.id);
            // The llm strategy falls back to its default route when the model's answer names no label.
            if (c.routerStrategy == RouterStrategy::Llm)
                checkDefault();
            return;
        }
        if (!c.routes || c.routes->empty()) {
            m_sink.error(childPointer(pointer, "routes"), "a keyword router needs routes (label -> keywords)", n.id);
            return;
        }
        for (const auto& [label, keywords] : *c.routes) {
            const auto where = childPointer(childPointer(pointer, "routes"), label);
            if (!labels.contains(label))
                m_sink.error(where, "route " + std::string("\"") + label + "\" matches no edge label of " +
                                        quoted(n.id),
                             n.id);
            if (keywords.empty())
                m_sink.warning(where, "route \"" + label + "\" has no keywords", n.id);
            for (size_t k = 0; k < keywords.size(); ++k)
                checkKeyword(childPointer(where, k), keywords[k], n.id);
        }
        checkDefault();
        for (const auto& label : labels) {
            if (!c.routes->contains(label) && c.defaultRoute != label)
                m_sink.warning(pointer, "edge label \"" + label + "\" has no route keywords and is not the default",
                               n.id);
        }
    }

    void checkKeyword(const std::string& pointer, const std::string& keyword, const NodeId& id)
    {
        if (keyword.empty()) {
            m_sink.error(pointer, "a keyword cannot be empty", id);
            return;
        }
        if (keyword.size() >= 2 && keyword.front() == '/' && keyword.back() == '/') {
            // The limit is on the expression between the slashes.
            if (keyword.size() - 2 > kMaxRegexLength) {
                m_sink.error(pointer, "a regular expression may be at most " + std::to_string(kMaxRegexLength) +
                                          " characters long",
                             id);
                return;
            }
            // Large repeat counts make std::regex build huge automata (seconds per pattern).
            if (largestRepeatCount(keyword) > kMaxRepeatCount) {
                m_sink.error(pointer, "regular expression " + describeJsonValue(keyword) +
                                          " is too complex: repeat counts {n} may be at most " +
                                          std::to_string(kMaxRepeatCount),
                             id);
                return;
            }
            try {
                std::regex(keyword.substr(1, keyword.size() - 2), std::regex::ECMAScript | std::regex::icase);
            } catch (const std::regex_error& e) {
                m_sink.error(pointer, "invalid regular expression " + printableText(keyword) + ": " + e.what(),
                             id);
            }
        }
    }

    // Kahn's algorithm over ordinary edges; whatever is left sits on a cycle.
    void checkCycles()
    {
        const size_t n = m_team.nodes.size();
        std::vector<size_t> indegree(n, 0);
        for (size_t i = 0; i < n; ++i)
            indegree[i] = m_in[i].size();
        std::vector<size_t> ready;
        for (size_t i = 0; i < n; ++i) {
            if (indegree[i] == 0)
                ready.push_back(i);
        }
        size_t done = 0;
        while (!ready.empty()) {
            const size_t i = ready.back();
            ready.pop_back();
            ++done;
            for (const auto& [to, e] : m_out[i]) {
                if (--indegree[to] == 0)
                    ready.push_back(to);
            }
        }
        if (done == n)
            return;
        // Walk backwards from a node left on a cycle until a node repeats.
        size_t start = 0;
        while (indegree[start] == 0)
            ++start;
        std::vector<size_t> path;
        std::map<size_t, size_t> at;
        size_t cur = start;
        while (!at.contains(cur)) {
            at[cur] = path.size();
            path.push_back(cur);
            for (const auto& [from, e] : m_in[cur]) {
                if (indegree[from] > 0) {
                    cur = from;
                    break;
                }
            }
        }
        std::vector<size_t> cycle(path.begin() + static_cast<std::ptrdiff_t>(at[cur]), path.end());
        std::reverse(cycle.begin(), cycle.end());
        // Name the cycle from its first node in file order, whichever node the walk began at.
        std::rotate(cycle.begin(), std::min_element(cycle.begin(), cycle.end()), cycle.end());
        std::string text;
        for (const size_t i : cycle)
            text += node(i).id.str() + " -> ";
        text += node(cycle.front()).id.str();
        // Point at the edge that closes the cycle: from its last node back to its first.
        std::optional<size_t> closing;
        for (const auto& [to, e] : m_out[cycle.back()]) {
            if (to == cycle.front()) {
                closing = e;
                break;
            }
        }
        m_sink.error(closing ? edgePointer(*closing) : "/edges", "cycle: " + text, node(cycle.front()).id, closing);
        m_hasCycle = true;
    }

    void checkReachability()
    {
        if (!m_input)
            return;
        std::vector<bool> reached(m_team.nodes.size(), false);
        std::vector<size_t> stack{*m_input};
        reached[*m_input] = true;
        while (!stack.empty()) {
            const size_t i = stack.back();
            stack.pop_back();
            auto visit = [&](size_t to) {
                if (!reached[to]) {
                    reached[to] = true;
                    stack.push_back(to);
                }
            };
            for (const auto& [to, e] : m_out[i])
                visit(to);
            for (const size_t member : m_membersOf[i])
                visit(member);
        }
        bool outputReached = false;
        bool anyOutput = false;
        for (size_t i = 0; i < m_team.nodes.size(); ++i) {
            if (node(i).kind == NodeKind::Output) {
                anyOutput = true;
                outputReached = outputReached || reached[i];
            }
            // A second input is already an error; calling it unreachable too says the same thing twice.
            if (!reached[i] && node(i).kind != NodeKind::Input)
                m_sink.warning(nodePointer(i), quoted(node(i).id) + " is not reachable from the input", node(i).id);
        }
        if (anyOutput && !outputReached)
            m_sink.error("/nodes", "no output node is reachable from the input");
        m_reached = std::move(reached);
    }

    // Ancestors of a node over ordinary edges (a member inherits its coordinator's,
    // without the coordinator itself).
    std::set<NodeId> upstreamOf(size_t i) const
    {
        std::set<NodeId> out;
        std::vector<size_t> stack;
        std::vector<bool> seen(m_team.nodes.size(), false);
        auto push = [&](size_t j) {
            if (!seen[j]) {
                seen[j] = true;
                stack.push_back(j);
            }
        };
        push(i);
        while (!stack.empty()) {
            const size_t j = stack.back();
            stack.pop_back();
            if (j != i)
                out.insert(node(j).id);
            for (const auto& [from, e] : m_in[j])
                push(from);
            // A member speaks while its coordinator is still running: it sees what
            // the coordinator sees, but not the coordinator's own result.
            for (const size_t e : m_memberIn[j]) {
                for (const auto& [from, inEdge] : m_in[m_index.at(m_team.edges[e].from)])
                    push(from);
            }
        }
        return out;
    }

    void checkTemplates()
    {
        if (m_hasCycle)
            return;
        for (size_t i = 0; i < m_team.nodes.size(); ++i) {
            const auto& n = node(i);
            std::optional<std::set<NodeId>> upstream;
            const bool member = !m_memberIn[i].empty();
            const auto checkText = [&](std::string_view key, const std::optional<std::string>& text) {
                if (!text)
                    return;
                const auto where = childPointer(nodePointer(i), key);
                std::set<std::string> seen;
                for (const std::string& name : placeholders(*text)) {
                    // One problem per placeholder and field, however often it is repeated.
                    if (!seen.insert(name).second)
                        continue;
                    if (name == "input" || name == "inputs")
                        continue;
                    if (name == "transcript" || name == "round" || name == "task") {
                        if (!member && n.kind != NodeKind::Coordinator)
                            m_sink.warning(where, "{{" + name + "}} is only filled in for a coordinator's members",
                                           n.id);
                        continue;
                    }
                    if (name.starts_with("from.")) {
                        const NodeId ref(name.substr(5));
                        if (!upstream)
                            upstream = upstreamOf(i);
                        if (!upstream->contains(ref))
                            m_sink.error(where,
                                         "{{" + name + "}} refers to " + quoted(ref) + ", which is not upstream of " +
                                             quoted(n.id),
                                         n.id);
                        continue;
                    }
                    m_sink.warning(where, "unknown placeholder {{" + name + "}}", n.id);
                }
            };
            checkText("system", n.config.call.system);
            checkText("prompt", n.config.call.prompt);
        }
    }

    const Team& m_team;
    ProblemSink& m_sink;
    std::unordered_map<NodeId, size_t> m_index;
    std::vector<std::vector<std::pair<size_t, size_t>>> m_in;   // (from node, edge) per node
    std::vector<std::vector<std::pair<size_t, size_t>>> m_out;  // (to node, edge) per node
    std::vector<std::vector<size_t>> m_membersOf;              // member nodes per coordinator
    std::vector<std::vector<size_t>> m_memberIn;               // member edges into each expert
    std::optional<size_t> m_input;
    std::vector<bool> m_reached;
    bool m_hasCycle = false;
};

} // namespace

void checkGraph(const Team& team, ProblemSink& sink)
{
    GraphChecker(team, sink).run();
}

} // namespace conclave::checks
