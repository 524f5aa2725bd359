#include "conclave/validate/FieldChecks.h"

#include "conclave/io/JsonText.h"
#include "conclave/model/NodeFactory.h"
#include "conclave/model/PromptTemplate.h"
#include "conclave/model/RouterStrategies.h"
#include "conclave/model/TeamGraph.h"
#include "conclave/validate/ConnectionRules.h"

#include <algorithm>
#include <map>
#include <regex>
#include <set>
#include <tuple>

namespace conclave::checks {

namespace {

// "Default route" -> "default route": a field's label inside a message.
std::string lowerFirst(std::string_view label)
{
    std::string out(label);
    if (!out.empty() && out.front() >= 'A' && out.front() <= 'Z')
        out.front() = char(out.front() - 'A' + 'a');
    return out;
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

class GraphChecker {
public:
    GraphChecker(const Team& team, ProblemSink& sink) : m_team(team), m_sink(sink) {}

    void run()
    {
        m_all.emplace(m_team);
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
        for (size_t i = 0; i < m_team.nodes.size(); ++i) {
            const auto& id = node(i).id;
            if (id.empty()) {
                m_sink.error(childPointer(nodePointer(i), "id"), "a node needs a non-empty id");
            } else if (!NodeFactory::isValidId(id.str())) {
                m_sink.error(childPointer(nodePointer(i), "id"),
                             "id " + quoted(id) + " may only use " + std::string(NodeFactory::kIdCharacters), id);
            }
            const size_t first = *m_all->indexOf(id);
            if (first != i)
                m_sink.error(childPointer(nodePointer(i), "id"),
                             "duplicate id " + quoted(id) + " (first used by " + nodePointer(first) + ")", id);
        }
    }

    void checkEdges()
    {
        // What makes two edges the same: a member edge differs from an ordinary one, and a
        // router's edges to one target under different labels are different routes, unless
        // the router broadcasts: then every edge fires and its labels choose nothing.
        using EdgeKey = std::tuple<size_t, size_t, bool, std::optional<std::string>>;
        std::set<EdgeKey> seen;
        std::vector<bool> accepted(m_team.edges.size(), false);
        for (size_t e = 0; e < m_team.edges.size(); ++e) {
            const auto& edge = m_team.edges[e];
            const auto from = m_all->indexOf(edge.from);
            const auto to = m_all->indexOf(edge.to);
            if (!from)
                m_sink.error(childPointer(edgePointer(e), "from"), "unknown node " + quoted(edge.from), {}, e);
            if (!to)
                m_sink.error(childPointer(edgePointer(e), "to"), "unknown node " + quoted(edge.to), {}, e);
            if (!from || !to)
                continue;
            const size_t f = *from;
            const size_t t = *to;
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
                if (const auto refusal = ConnectionRules::memberKindRefusal(node(f), node(t))) {
                    m_sink.error(childPointer(edgePointer(e), "role"), *refusal, {}, e);
                    continue;
                }
            }
            accepted[e] = true;
        }
        // The rest of the checks see the edges that made it this far: no duplicate, no misplaced member edge.
        m_graph.emplace(m_team, [&](EdgeIndex e) { return bool(accepted[e]); });
    }

    const TeamGraph& graph() const { return *m_graph; }

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
            const NodeIndex index(i);
            const size_t ins = graph().sourceCount(index);
            const size_t outs = graph().out(index).size();
            const auto& memberIn = graph().coordinators(index);
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
                if (graph().members(index).empty())
                    m_sink.error(pointer, "coordinator " + quoted(n.id) + " has no members (edges with role member)",
                                 n.id);
                checkMembership(i, ins, outs);
                checkMeetingCycle(i);
                break;
            case NodeKind::Expert:
                checkMembership(i, ins, outs);
                break;
            }
            if (n.kind != NodeKind::Output && n.kind != NodeKind::Router && outs == 0 && memberIn.empty() &&
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

    // A member (an expert, or a member meeting) belongs to one coordinator and has no ordinary edges.
    void checkMembership(size_t i, size_t ins, size_t outs)
    {
        const auto& n = node(i);
        const auto& memberIn = graph().coordinators(NodeIndex(i));
        const std::string what = std::string(toString(n.kind)) + ' ' + quoted(n.id);
        if (!memberIn.empty() && (ins > 0 || outs > 0))
            m_sink.error(nodePointer(i), what + " is a coordinator's member, so it cannot also have ordinary edges",
                         n.id);
        if (memberIn.size() > 1)
            m_sink.error(childPointer(edgePointer(memberIn[1].edge), "to"),
                         what + " is a member of more than one coordinator", n.id, memberIn[1].edge);
    }

    // A coordinator that is, through member meetings, a member of itself: said
    // once, at the circle's first coordinator in node order, pointing at the
    // member edge that closes it.
    void checkMeetingCycle(size_t i)
    {
        const auto cycle = graph().memberCycle(NodeIndex(i));
        if (cycle.nodes.empty() || cycle.nodes.front() != i)
            return;
        m_sink.error(edgePointer(*cycle.closing), ConnectionRules::memberCycleMessage(graph(), cycle), node(i).id,
                     *cycle.closing);
    }

    // A router's fields against its strategy's descriptor (RouterStrategies) and its edges.
    void checkRoutes(size_t i)
    {
        const auto& n = node(i);
        const auto pointer = nodePointer(i);
        std::set<std::string> labels;
        for (const auto& [to, e] : graph().out(NodeIndex(i))) {
            // An empty label is already reported with its edge.
            if (m_team.edges[e].when && !m_team.edges[e].when->empty())
                labels.insert(*m_team.edges[e].when);
        }
        const auto& c = n.config;
        const RouterStrategyDescriptor* strategy =
            c.routerStrategy ? &RouterStrategies::of(*c.routerStrategy) : nullptr;
        for (const RouterField* field : RouterStrategies::fields()) {
            if (field->warnUnused && (!strategy || !strategy->field(field->key)) &&
                RouterStrategies::hasValue(*field, c))
                m_sink.warning(childPointer(pointer, field->key),
                               std::string(field->key) + (field->kind == FieldKind::RouteMap ? " are" : " is") +
                                   " used only by the " +
                                   RouterStrategies::namesInWords(RouterStrategies::strategiesWith(field->key)) +
                                   " strategy",
                               n.id);
        }
        if (!strategy)
            return;
        for (const auto& field : strategy->fields) {
            if (field.required && !RouterStrategies::isSet(field, c)) {
                m_sink.error(childPointer(pointer, field.key),
                             strategy->routerPhrase() + " needs " + std::string(field.key) +
                                 (field.hint.empty() ? "" : " (" + std::string(field.hint) + ")"),
                             n.id);
                return;
            }
        }
        if (strategy->strategy == RouterStrategy::Learned && !checkLearned(i))
            return;
        // The route labels its fields name; a label a route table leaves out may still be one of these.
        std::set<std::string> named;
        const RouteTable* table = nullptr;
        for (const auto& field : strategy->fields) {
            const auto where = childPointer(pointer, field.key);
            const auto text = RouterStrategies::text(field, c);
            if (field.kind == FieldKind::RouteLabel && text) {
                named.insert(*text);
                if (!labels.contains(*text))
                    m_sink.error(where, lowerFirst(field.label) + " \"" + *text + "\" matches no edge label of " +
                                            quoted(n.id),
                                 n.id);
            } else if (field.kind == FieldKind::NodeRef && text) {
                const auto& out = graph().out(NodeIndex(i));
                const bool target = std::any_of(out.begin(), out.end(), [&](const auto& link) {
                    return graph().idOf(link.node).str() == *text;
                });
                if (!target)
                    m_sink.error(where,
                                 std::string(field.key) + " \"" + *text + "\" is not a target of " + quoted(n.id),
                                 n.id);
            } else if (field.kind == FieldKind::RouteMap) {
                table = RouterStrategies::table(field, c);
                if (table)
                    checkRouteTable(where, *table, labels, n.id);
            }
        }
        if (!table)
            return;
        for (const auto& label : labels) {
            if (!table->contains(label) && !named.contains(label))
                m_sink.warning(pointer, "edge label \"" + label + "\" has no route keywords and is not the default",
                               n.id);
        }
    }

    // A learned router: each route leads to an expert (its model is the route's), and its policy's
    // fields are set: a threshold (cheapest_above, strong_weak), a cost weight (max_utility), and
    // for strong_weak exactly two routes named by strong and weak. False when something is missing.
    bool checkLearned(size_t i)
    {
        const auto& n = node(i);
        const auto pointer = nodePointer(i);
        const auto& c = n.config;
        bool ok = true;
        const auto& out = graph().out(NodeIndex(i));
        for (const auto& [to, e] : out) {
            const auto& target = node(to);
            if (target.kind != NodeKind::Expert) {
                m_sink.error(edgePointer(e),
                             "the route to " + quoted(target.id) + " leads to " + kindWithArticle(target.kind) +
                                 "; a learned route's model is that of the expert it leads to",
                             n.id, e);
                ok = false;
            }
        }
        const auto policy = c.routePolicy.value_or("");
        const auto needs = [&](std::string_view key, bool set) {
            if (!set) {
                m_sink.error(childPointer(pointer, key),
                             "a learned router with policy " + policy + " needs " + std::string(key), n.id);
                ok = false;
            }
        };
        if (policy == "cheapest_above" || policy == "strong_weak")
            needs("threshold", c.routeThreshold.has_value());
        if (policy == "max_utility")
            needs("cost_weight", c.costWeight.has_value());
        if (policy == "strong_weak") {
            needs("strong", c.strongRoute.has_value());
            needs("weak", c.weakRoute.has_value());
            if (out.size() != 2) {
                m_sink.error(pointer,
                             "a learned router with policy strong_weak has exactly two routes, got " +
                                 std::to_string(out.size()),
                             n.id);
                ok = false;
            }
            if (c.strongRoute && c.weakRoute && *c.strongRoute == *c.weakRoute) {
                m_sink.error(childPointer(pointer, "weak"), "strong and weak name the same route", n.id);
                ok = false;
            }
        }
        return ok;
    }

    void checkRouteTable(const std::string& where, const RouteTable& routes, const std::set<std::string>& labels,
                         const NodeId& id)
    {
        for (const auto& [label, keywords] : routes) {
            const auto at = childPointer(where, label);
            if (!labels.contains(label))
                m_sink.error(at, "route " + std::string("\"") + label + "\" matches no edge label of " + quoted(id),
                             id);
            if (keywords.empty())
                m_sink.warning(at, "route \"" + label + "\" has no keywords", id);
            for (size_t k = 0; k < keywords.size(); ++k)
                checkKeyword(childPointer(at, k), keywords[k], id);
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

    void checkCycles()
    {
        const auto cycle = graph().cycle();
        if (cycle.nodes.empty())
            return;
        std::string text;
        for (const size_t i : cycle.nodes)
            text += node(i).id.str() + " -> ";
        text += node(cycle.nodes.front()).id.str();
        // Point at the edge that closes the cycle: from its last node back to its first.
        const auto closing = cycle.closing ? std::optional<size_t>(*cycle.closing) : std::nullopt;
        m_sink.error(closing ? edgePointer(*closing) : "/edges", "cycle: " + text, node(cycle.nodes.front()).id,
                     closing);
        m_hasCycle = true;
    }

    void checkReachability()
    {
        if (!m_input)
            return;
        const auto reached = graph().reachableFrom(NodeIndex(*m_input));
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
    }

    void checkTemplates()
    {
        if (m_hasCycle)
            return;
        for (size_t i = 0; i < m_team.nodes.size(); ++i) {
            const auto& n = node(i);
            std::optional<std::vector<bool>> upstream;
            const bool inMeeting = graph().isMember(NodeIndex(i)) || n.kind == NodeKind::Coordinator;
            const auto isUpstream = [&](std::string_view id) {
                if (!upstream)
                    upstream = graph().upstreamOf(NodeIndex(i));
                const auto index = graph().indexOf(NodeId(std::string(id)));
                return index && (*upstream)[*index];
            };
            const auto checkText = [&](std::string_view key, const std::optional<std::string>& text) {
                if (!text)
                    return;
                const auto where = childPointer(nodePointer(i), key);
                std::set<std::string> seen;
                for (const std::string& name : PromptTemplate::names(*text)) {
                    // One problem per placeholder and field, however often it is repeated.
                    if (!seen.insert(name).second)
                        continue;
                    switch (PromptTemplate::useOf(name, inMeeting, isUpstream)) {
                    case PromptTemplate::Use::Allowed:
                        break;
                    case PromptTemplate::Use::MeetingOnly:
                        m_sink.warning(where, "{{" + name + "}} is only filled in for a coordinator's members", n.id);
                        break;
                    case PromptTemplate::Use::NotUpstream: {
                        const NodeId ref(name.substr(PromptTemplate::kFromPrefix.size()));
                        m_sink.error(where,
                                     "{{" + name + "}} refers to " + quoted(ref) + ", which is not upstream of " +
                                         quoted(n.id),
                                     n.id);
                        break;
                    }
                    case PromptTemplate::Use::Unknown:
                        m_sink.warning(where, "unknown placeholder {{" + name + "}}", n.id);
                        break;
                    }
                }
            };
            checkText("system", n.config.call.system);
            checkText("prompt", n.config.call.prompt);
        }
    }

    const Team& m_team;
    ProblemSink& m_sink;
    std::optional<TeamGraph> m_all;   // every edge with known ends: the node index
    std::optional<TeamGraph> m_graph; // the edges that passed checkEdges
    std::optional<size_t> m_input;
    bool m_hasCycle = false;
};

} // namespace

void checkGraph(const Team& team, ProblemSink& sink)
{
    GraphChecker(team, sink).run();
}

} // namespace conclave::checks
