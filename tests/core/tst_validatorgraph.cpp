// Tests the rules of GraphChecks through conclave::validate(): ids, edges,
// input and output, routers, aggregators, coordinators, keyword routes,
// cycles and reachability; each row asserts the exact list of problems.
#include <QtTest>

#include "support/ValidatorTestKit.h"

using namespace validatortest;

class TestValidatorGraph : public QObject, private ValidatorRows {
    Q_OBJECT

private slots:
    void initTestCase() { QVERIFY(loadCatalog()); }

    void ids_data();
    void ids() { verifyRow(); }
    void edges_data();
    void edges() { verifyRow(); }
    void inputAndOutput_data();
    void inputAndOutput() { verifyRow(); }
    void routers_data();
    void routers() { verifyRow(); }
    void routeLabels_data();
    void routeLabels() { verifyRow(); }
    void aggregators_data();
    void aggregators() { verifyRow(); }
    void coordinators_data();
    void coordinators() { verifyRow(); }
    void keywordRoutes_data();
    void keywordRoutes() { verifyRow(); }
    void cycles_data();
    void cycles() { verifyRow(); }
    void reachability_data();
    void reachability() { verifyRow(); }
};

void TestValidatorGraph::ids_data()
{
    addColumns();
    row("empty id", edit(minimal, [](json& t) { t["nodes"].push_back(expertNode("")); }),
        {err("/nodes/3/id", "a node needs a non-empty id"),
         warn("/nodes/3", "\"\" has no outgoing edges; its result is not used", {.node = ""}),
         warn("/nodes/3", "\"\" is not reachable from the input", {.node = ""})});
    row("space in id", edit(minimal, [](json& t) { renameNode(t, "e", "e f"); }),
        {err("/nodes/1/id", "id \"e f\" may only use letters, digits, '_', '-' and '.'", {.node = "e f"})});
    row("slash in id", edit(minimal, [](json& t) { renameNode(t, "e", "a/b"); }),
        {err("/nodes/1/id", "id \"a/b\" may only use letters, digits, '_', '-' and '.'", {.node = "a/b"})});
    row("non-ASCII id", edit(minimal, [](json& t) { renameNode(t, "e", "\xC3\xA9"); }),
        {err("/nodes/1/id", "id \"\xC3\xA9\" may only use letters, digits, '_', '-' and '.'", {.node = "\xC3\xA9"})});
    row("letters, digits, '_', '-' and '.'", edit(minimal, [](json& t) { renameNode(t, "e", "Expert_1-b.v2"); }), {});
    row("duplicate id", edit(minimal, [](json& t) { t["nodes"].push_back(expertNode("e")); }),
        {err("/nodes/3/id", "duplicate id \"e\" (first used by /nodes/1)", {.node = "e"}),
         warn("/nodes/3", "\"e\" has no outgoing edges; its result is not used", {.node = "e"}),
         warn("/nodes/3", "\"e\" is not reachable from the input", {.node = "e"})});
}

void TestValidatorGraph::edges_data()
{
    addColumns();
    row("unknown from", edit(minimal, [](json& t) { t["edges"].push_back(edgeJson("ghost", "out")); }),
        {err("/edges/2/from", "unknown node \"ghost\"", {.edge = 2})});
    row("unknown to", edit(minimal, [](json& t) { t["edges"].push_back(edgeJson("e", "ghost")); }),
        {err("/edges/2/to", "unknown node \"ghost\"", {.edge = 2})});
    row("unknown from and to", edit(minimal, [](json& t) { t["edges"].push_back(edgeJson("x", "y")); }),
        {err("/edges/2/from", "unknown node \"x\"", {.edge = 2}),
         err("/edges/2/to", "unknown node \"y\"", {.edge = 2})});
    row("duplicate edge", edit(minimal, [](json& t) { t["edges"].push_back(edgeJson("e", "out")); }),
        {warn("/edges/2", "duplicate edge from \"e\" to \"out\"", {.edge = 2})});
    row("member edge from an expert",
        edit(minimal,
             [](json& t) {
                 t["nodes"].push_back(expertNode("m"));
                 t["edges"].push_back(memberEdge("e", "m"));
             }),
        {err("/edges/2/role", "a member edge must start at a coordinator; \"e\" is an expert", {.edge = 2}),
         warn("/nodes/3", "\"m\" has no outgoing edges; its result is not used", {.node = "m"}),
         warn("/nodes/3", "\"m\" is not reachable from the input", {.node = "m"})});
    // Says what the target is, like the message for a member edge's start does.
    row("member edge to a non-expert",
        edit(coordinatorTeam, [](json& t) { t["edges"].push_back(memberEdge("c", "in")); }),
        {err("/edges/3/role", "a coordinator's members must be experts or coordinators; \"in\" is an input", {.edge = 3})});
    row("member with an ordinary edge",
        edit(coordinatorTeam, [](json& t) { t["edges"].push_back(edgeJson("in", "m")); }),
        {err("/nodes/2", "expert \"m\" is a coordinator's member, so it cannot also have ordinary edges",
             {.node = "m"})});
    // Not a duplicate of the member edge (its role differs): an ordinary edge into a member.
    row("member and ordinary edge between the same nodes",
        edit(coordinatorTeam, [](json& t) { t["edges"].push_back(edgeJson("c", "m")); }),
        {err("/nodes/2", "expert \"m\" is a coordinator's member, so it cannot also have ordinary edges",
             {.node = "m"})});
    row("member of two coordinators",
        edit(coordinatorTeam,
             [](json& t) {
                 t["nodes"].push_back({{"id", "c2"}, {"kind", "coordinator"}, {"mode", "debate"}});
                 t["edges"].push_back(edgeJson("in", "c2"));
                 t["edges"].push_back(memberEdge("c2", "m"));
             }),
        {err("/edges/4/to", "expert \"m\" is a member of more than one coordinator", {.node = "m", .edge = 4}),
         warn("/nodes/4", "\"c2\" has no outgoing edges; its result is not used", {.node = "c2"})});
    row("when on an ordinary edge", setAt(minimal, "/edges/0/when", "x"),
        {warn("/edges/0/when", "only edges from a router carry a route label; it is ignored", {.edge = 0})});
    row("when on a member edge", setAt(coordinatorTeam, "/edges/1/when", "x"),
        {warn("/edges/1/when", "only edges from a router carry a route label; it is ignored", {.edge = 1})});
}

void TestValidatorGraph::inputAndOutput_data()
{
    addColumns();
    row("no input",
        edit(minimal,
             [](json& t) {
                 t["nodes"].erase(0);
                 t["edges"].erase(0);
             }),
        {err("/nodes", "the team has no input node")});
    row("two inputs", edit(minimal, [](json& t) { t["nodes"].push_back(inputNode("in2")); }),
        {err("/nodes/3/kind", "a second input node; a team has exactly one (the first is /nodes/0)", {.node = "in2"})});
    row("no output",
        edit(minimal,
             [](json& t) {
                 t["nodes"].erase(2);
                 t["edges"].erase(1);
             }),
        {err("/nodes", "the team has no output node"),
         warn("/nodes/1", "\"e\" has no outgoing edges; its result is not used", {.node = "e"})});
    row("no nodes",
        edit(minimal,
             [](json& t) {
                 t["nodes"] = json::array();
                 t["edges"] = json::array();
             }),
        {err("/nodes", "the team has no input node"), err("/nodes", "the team has no output node")});
    row("input with an incoming edge",
        edit(minimal,
             [](json& t) {
                 t["nodes"].push_back(expertNode("stray"));
                 t["edges"].push_back(edgeJson("stray", "in"));
             }),
        {err("/nodes/0", "the input node cannot have incoming edges", {.node = "in"}),
         warn("/nodes/3", "\"stray\" is not reachable from the input", {.node = "stray"})});
    row("output with two incoming edges",
        edit(minimal,
             [](json& t) {
                 t["nodes"].push_back(expertNode("e2"));
                 t["edges"].push_back(edgeJson("in", "e2"));
                 t["edges"].push_back(edgeJson("e2", "out"));
             }),
        {err("/nodes/2", "an output node needs exactly one incoming edge, has 2", {.node = "out"})});
    row("output without an incoming edge", edit(minimal, [](json& t) { t["edges"].erase(1); }),
        {warn("/nodes/1", "\"e\" has no outgoing edges; its result is not used", {.node = "e"}),
         err("/nodes/2", "an output node needs exactly one incoming edge, has 0", {.node = "out"}),
         warn("/nodes/2", "\"out\" is not reachable from the input", {.node = "out"}),
         err("/nodes", "no output node is reachable from the input")});
    row("output with an outgoing edge",
        edit(minimal,
             [](json& t) {
                 t["nodes"].push_back(outputNode("out2"));
                 t["edges"].push_back(edgeJson("out", "out2"));
             }),
        {err("/nodes/2", "an output node cannot have outgoing edges", {.node = "out"})});
    row("two outputs",
        edit(minimal,
             [](json& t) {
                 t["nodes"].push_back(outputNode("out2"));
                 t["edges"].push_back(edgeJson("e", "out2"));
             }),
        {});
}

void TestValidatorGraph::routers_data()
{
    addColumns();
    row("no strategy", edit(routerTeam, [](json& t) { t["nodes"][1].erase("strategy"); }),
        {err("/nodes/1/strategy", "a router needs a strategy: all, keyword, moe_gate, llm or learned", {.node = "r"})});
    row("no outgoing edges",
        edit(routerTeam,
             [](json& t) {
                 t["nodes"].push_back({{"id", "r2"}, {"kind", "router"}, {"strategy", "all"}});
                 t["edges"].push_back(edgeJson("in", "r2"));
             }),
        {err("/nodes/4", "router \"r2\" has no outgoing edges to route to", {.node = "r2"})});
    row("top_k above the routes",
        edit(routerTeam,
             [](json& t) {
                 t["nodes"][1]["strategy"] = "moe_gate";
                 t["nodes"][1]["top_k"] = 3;
                 t["nodes"].push_back(expertNode("e2"));
                 t["edges"].push_back({{"from", "r"}, {"to", "e2"}, {"when", "e2"}});
                 t["edges"].push_back(edgeJson("e2", "e"));
             }),
        {warn("/nodes/1/top_k", "top_k 3 is more than the 2 routes of \"r\"", {.node = "r"})});
    row("top_k above a single route",
        edit(routerTeam,
             [](json& t) {
                 t["nodes"][1]["strategy"] = "moe_gate";
                 t["nodes"][1]["top_k"] = 2;
             }),
        {warn("/nodes/1/top_k", "top_k 2 is more than the 1 route of \"r\"", {.node = "r"})});
    row("top_k equal to the routes",
        edit(routerTeam,
             [](json& t) {
                 t["nodes"][1]["strategy"] = "moe_gate";
                 t["nodes"][1]["top_k"] = 1;
             }),
        {});
    row("top_k -1",
        edit(routerTeam,
             [](json& t) {
                 t["nodes"][1]["strategy"] = "moe_gate";
                 t["nodes"][1]["top_k"] = -1;
             }),
        {err("/nodes/1/top_k", "expected an integer of at least 1, got -1", {.node = "r"})});
    row("routes on an all router", setAt(routerTeam, "/nodes/1/routes", {{"e", {"x"}}}),
        {warn("/nodes/1/routes", "routes are used only by the keyword strategy", {.node = "r"})});
    row("llm router without a model", setAt(routerTeam, "/nodes/1/strategy", "llm"),
        {err("/nodes/1/model", "an llm router needs a model", {.node = "r"})});
    row("llm router with a model",
        edit(routerTeam,
             [](json& t) {
                 t["nodes"][1]["strategy"] = "llm";
                 t["nodes"][1]["model"] = "local/math-13b";
             }),
        {}, kModels);
    row("llm router with the default model",
        edit(routerTeam,
             [](json& t) {
                 t["nodes"][1]["strategy"] = "llm";
                 t["defaults"] = {{"model", "local/math-13b"}};
             }),
        {}, kModels);
    row("llm router with a default label",
        edit(routerTeam,
             [](json& t) {
                 t["nodes"][1]["strategy"] = "llm";
                 t["nodes"][1]["model"] = "local/math-13b";
                 t["nodes"][1]["default"] = "e";
             }),
        {});
    // The llm strategy falls back to its default route, so it must name an edge label.
    row("llm router with a default that is no label",
        edit(routerTeam,
             [](json& t) {
                 t["nodes"][1]["strategy"] = "llm";
                 t["nodes"][1]["model"] = "local/math-13b";
                 t["nodes"][1]["default"] = "nope";
             }),
        {err("/nodes/1/default", "default route \"nope\" matches no edge label of \"r\"", {.node = "r"})});
}

namespace {

// routerTeam() with router "r" choosing by `strategy` (valid as it stands), then `change`.
TeamBuilder routedBy(const std::string& strategy, const std::function<void(json&)>& change = {})
{
    return [strategy, change] {
        auto t = routerTeam();
        auto& r = t["nodes"][1];
        r["strategy"] = strategy;
        if (strategy == "keyword")
            r["routes"] = {{"e", {"x"}}};
        if (strategy == "llm")
            r["model"] = "local/math-13b";
        if (change)
            change(t);
        return t;
    };
}

const std::string kNeedsLabel = "an edge from router \"r\" needs a route label (when)";

} // namespace

// A router that chooses among its edges by label needs one on each; a broadcast
// (all) router fires them all, so its edges may go without. Its labels are
// harmless, and choose nothing: they do not make two edges to one target differ.
void TestValidatorGraph::routeLabels_data()
{
    addColumns();
    const auto noWhen = [](json& t) { t["edges"][1].erase("when"); };
    const auto emptyWhen = [](json& t) { t["edges"][1]["when"] = ""; };
    for (const std::string strategy : {"all", "keyword", "moe_gate", "llm"}) {
        const bool broadcast = strategy == "all";
        QStringList missing;
        if (!broadcast)
            missing << err("/edges/1/when", kNeedsLabel, {.edge = 1});
        // A keyword route then names a label no edge has.
        if (strategy == "keyword")
            missing << err("/nodes/1/routes/e", "route \"e\" matches no edge label of \"r\"", {.node = "r"});
        row((strategy + ": labelled edge").c_str(), routedBy(strategy), {});
        row((strategy + ": edge without when").c_str(), routedBy(strategy, noWhen), missing);
        row((strategy + ": edge with an empty when").c_str(), routedBy(strategy, emptyWhen), missing);
    }
    // Without a strategy nothing says the router broadcasts: its edges still need labels.
    row("no strategy: edge without when",
        edit(routerTeam,
             [](json& t) {
                 t["nodes"][1].erase("strategy");
                 t["edges"][1].erase("when");
             }),
        {err("/edges/1/when", kNeedsLabel, {.edge = 1}),
         err("/nodes/1/strategy", "a router needs a strategy: all, keyword, moe_gate, llm or learned", {.node = "r"})});
    row("all: two unlabelled edges to one target",
        routedBy("all",
                 [](json& t) {
                     t["edges"][1].erase("when");
                     t["edges"].push_back(edgeJson("r", "e"));
                 }),
        {warn("/edges/3", "duplicate edge from \"r\" to \"e\"", {.edge = 3})});
    row("all: two edges to one target under two labels",
        routedBy("all",
                 [](json& t) {
                     t["edges"].push_back({{"from", "r"}, {"to", "e"}, {"when", "e2"}});
                 }),
        {warn("/edges/3", "duplicate edge from \"r\" to \"e\"", {.edge = 3})});
    row("moe_gate: two edges to one target under two labels",
        routedBy("moe_gate",
                 [](json& t) {
                     t["edges"].push_back({{"from", "r"}, {"to", "e"}, {"when", "e2"}});
                 }),
        {});
    row("moe_gate: two edges to one target under one label",
        routedBy("moe_gate",
                 [](json& t) {
                     t["edges"].push_back({{"from", "r"}, {"to", "e"}, {"when", "e"}});
                 }),
        {warn("/edges/3", "duplicate edge from \"r\" to \"e\"", {.edge = 3})});
    // Every edge of a broadcast router may go without a label; the team is valid.
    row("all: no edge labelled",
        routedBy("all",
                 [](json& t) {
                     t["nodes"].push_back(expertNode("e2"));
                     t["nodes"].push_back({{"id", "v"}, {"kind", "aggregator"}, {"strategy", "concat"}});
                     t["edges"] = json::array({edgeJson("in", "r"), edgeJson("r", "e"), edgeJson("r", "e2"),
                                               edgeJson("e", "v"), edgeJson("e2", "v"), edgeJson("v", "out")});
                 }),
        {});
}

void TestValidatorGraph::aggregators_data()
{
    addColumns();
    row("no strategy", edit(aggregatorTeam, [](json& t) { t["nodes"][3].erase("strategy"); }),
        {err("/nodes/3/strategy",
             "an aggregator needs a strategy: majority, weighted, best_confidence, first, concat or synthesize",
             {.node = "v"})});
    row("no inputs",
        edit(aggregatorTeam,
             [](json& t) {
                 t["nodes"].push_back({{"id", "v2"}, {"kind", "aggregator"}, {"strategy", "majority"}});
             }),
        {err("/nodes/5", "aggregator \"v2\" has no inputs", {.node = "v2"}),
         warn("/nodes/5", "\"v2\" has no outgoing edges; its result is not used", {.node = "v2"}),
         warn("/nodes/5", "\"v2\" is not reachable from the input", {.node = "v2"})});
    row("quorum above the inputs", setAt(aggregatorTeam, "/nodes/3/quorum", 3),
        {err("/nodes/3/quorum", "quorum 3 is more than the 2 inputs of \"v\"", {.node = "v"})});
    row("quorum equal to the inputs", setAt(aggregatorTeam, "/nodes/3/quorum", 2), {});
    // Only the range error: -1 is not "more than the inputs".
    row("quorum -1", setAt(aggregatorTeam, "/nodes/3/quorum", -1),
        {err("/nodes/3/quorum", "expected an integer of at least 1, got -1", {.node = "v"})});
    row("synthesize without a model", setAt(aggregatorTeam, "/nodes/3/strategy", "synthesize"),
        {err("/nodes/3/model", "a synthesize aggregator needs a model", {.node = "v"})});
    row("synthesize with a model",
        edit(aggregatorTeam,
             [](json& t) {
                 t["nodes"][3]["strategy"] = "synthesize";
                 t["nodes"][3]["model"] = "local/math-13b";
             }),
        {}, kModels);
    row("majority with a model it does not need", setAt(aggregatorTeam, "/nodes/3/model", "local/nope"),
        {err("/nodes/3/model", unknownModel("local/nope"), {.node = "v"})}, kModels);
}

void TestValidatorGraph::coordinators_data()
{
    addColumns();
    row("no mode", edit(coordinatorTeam, [](json& t) { t["nodes"][1].erase("mode"); }),
        {err("/nodes/1/mode", "a coordinator needs a mode: round_robin, debate, decompose, cascade or adaptive", {.node = "c"})});
    row("no members", edit(coordinatorTeam, [](json& t) { t["edges"][1].erase("role"); }),
        {err("/nodes/1", "coordinator \"c\" has no members (edges with role member)", {.node = "c"}),
         warn("/nodes/2", "\"m\" has no outgoing edges; its result is not used", {.node = "m"}),
         warn("/nodes/2/prompt", "{{task}} is only filled in for a coordinator's members", {.node = "m"})});
    row("decompose without a model", setAt(coordinatorTeam, "/nodes/1/mode", "decompose"),
        {err("/nodes/1/model", "a decompose coordinator needs a model", {.node = "c"})});
    row("decompose with a model",
        edit(coordinatorTeam,
             [](json& t) {
                 t["nodes"][1]["mode"] = "decompose";
                 t["nodes"][1]["model"] = "local/math-13b";
             }),
        {}, kModels);
    row("cascade",
        edit(coordinatorTeam,
             [](json& t) {
                 t["nodes"][1]["mode"] = "cascade";
                 t["nodes"][1]["threshold"] = 0.8;
             }),
        {});
    row("round robin", setAt(coordinatorTeam, "/nodes/1/mode", "round_robin"), {});
    // max_subtasks: an integer of at least 1 on a decompose; in any other mode it does nothing (a warning).
    // (Not an integer at all, 2.5 or "3", the reader refuses: tst_teamjson typeErrorsHavePointers.)
    const auto decompose = [](json maxSubtasks) {
        return edit(coordinatorTeam, [maxSubtasks](json& t) {
            t["nodes"][1]["mode"] = "decompose";
            t["nodes"][1]["model"] = "local/math-13b";
            t["nodes"][1]["max_subtasks"] = maxSubtasks;
        });
    };
    row("decompose max_subtasks 1", decompose(1), {}, kModels);
    row("decompose max_subtasks 100000", decompose(100000), {}, kModels);
    row("decompose max_subtasks 0", decompose(0),
        {err("/nodes/1/max_subtasks", "expected an integer of at least 1, got 0", {.node = "c"})}, kModels);
    row("decompose max_subtasks -2", decompose(-2),
        {err("/nodes/1/max_subtasks", "expected an integer of at least 1, got -2", {.node = "c"})}, kModels);
    row("max_subtasks on a debate", setAt(coordinatorTeam, "/nodes/1/max_subtasks", 3),
        {warn("/nodes/1/max_subtasks", "max_subtasks is read only in mode decompose; this coordinator's mode is debate",
              {.node = "c"})});
    row("max_subtasks 0 on a cascade",
        edit(coordinatorTeam,
             [](json& t) {
                 t["nodes"][1]["mode"] = "cascade";
                 t["nodes"][1]["max_subtasks"] = 0;
             }),
        {err("/nodes/1/max_subtasks", "expected an integer of at least 1, got 0", {.node = "c"}),
         warn("/nodes/1/max_subtasks",
              "max_subtasks is read only in mode decompose; this coordinator's mode is cascade", {.node = "c"})});
}

void TestValidatorGraph::keywordRoutes_data()
{
    addColumns();
    const std::string where = "/nodes/1/routes/math/0";
    row("no routes", edit(keywordTeam, [](json& t) { t["nodes"][1].erase("routes"); }),
        {err("/nodes/1/routes", "a keyword router needs routes (label -> keywords)", {.node = "r"})});
    row("empty routes", setAt(keywordTeam, "/nodes/1/routes", json::object()),
        {err("/nodes/1/routes", "a keyword router needs routes (label -> keywords)", {.node = "r"})});
    row("route without an edge label", setAt(keywordTeam, "/nodes/1/routes/code", {"def"}),
        {err("/nodes/1/routes/code", "route \"code\" matches no edge label of \"r\"", {.node = "r"})});
    row("route label with a slash", setAt(keywordTeam, "/nodes/1/routes/x~1y", {"k"}),
        {err("/nodes/1/routes/x~1y", "route \"x/y\" matches no edge label of \"r\"", {.node = "r"})});
    row("default that is no label", setAt(keywordTeam, "/nodes/1/default", "other"),
        {err("/nodes/1/default", "default route \"other\" matches no edge label of \"r\"", {.node = "r"}),
         warn("/nodes/1", "edge label \"general\" has no route keywords and is not the default", {.node = "r"})});
    row("edge label without keywords", edit(keywordTeam, [](json& t) { t["nodes"][1].erase("default"); }),
        {warn("/nodes/1", "edge label \"general\" has no route keywords and is not the default", {.node = "r"})});
    row("every label has keywords",
        edit(keywordTeam,
             [](json& t) {
                 t["nodes"][1].erase("default");
                 t["nodes"][1]["routes"]["general"] = {"who"};
             }),
        {});
    row("route without keywords", setAt(keywordTeam, "/nodes/1/routes/math", json::array()),
        {warn("/nodes/1/routes/math", "route \"math\" has no keywords", {.node = "r"})});
    row("empty keyword", setAt(keywordTeam, "/nodes/1/routes/math", {"calc", ""}),
        {err("/nodes/1/routes/math/1", "a keyword cannot be empty", {.node = "r"})});
    row("invalid regular expression", setAt(keywordTeam, "/nodes/1/routes/math", {"/(/"}),
        {err(where, "invalid regular expression /(/: " + regexError("("), {.node = "r"})});
    row("unbalanced bracket", setAt(keywordTeam, "/nodes/1/routes/math", {"/[a-/"}),
        {err(where, "invalid regular expression /[a-/: " + regexError("[a-"), {.node = "r"})});
    // The limit is on the expression between the slashes, as the message says.
    row("regular expression of 500 characters",
        setAt(keywordTeam, "/nodes/1/routes/math", {"/" + std::string(500, 'a') + "/"}), {});
    row("regular expression of 501 characters",
        setAt(keywordTeam, "/nodes/1/routes/math", {"/" + std::string(501, 'a') + "/"}),
        {err(where, "a regular expression may be at most 500 characters long", {.node = "r"})});
    row("plain keyword with slashes", setAt(keywordTeam, "/nodes/1/routes/math", {"km/h", "/"}), {});
}

void TestValidatorGraph::cycles_data()
{
    addColumns();
    const auto a = expertNode("a");
    const auto b = expertNode("b");
    const auto c = expertNode("c");
    // The cycle is named from its first node in file order, pointing at the edge that closes it.
    row("two nodes", graph({inputNode(), a, b, outputNode()}, {{"in", "a"}, {"a", "b"}, {"b", "a"}, {"b", "out"}}),
        {err("/edges/2", "cycle: a -> b -> a", {.node = "a", .edge = 2})});
    row("three nodes",
        graph({inputNode(), a, b, c, outputNode()}, {{"in", "a"}, {"a", "b"}, {"b", "c"}, {"c", "a"}, {"c", "out"}}),
        {err("/edges/3", "cycle: a -> b -> c -> a", {.node = "a", .edge = 3})});
    row("output listed before the cycle",
        graph({inputNode(), outputNode(), a, b}, {{"in", "a"}, {"a", "b"}, {"b", "a"}, {"b", "out"}}),
        {err("/edges/2", "cycle: a -> b -> a", {.node = "a", .edge = 2})});
    row("self loop", edit(minimal, [](json& t) { t["edges"].push_back(edgeJson("e", "e")); }),
        {err("/edges/2", "cycle: e -> e", {.node = "e", .edge = 2})});
}

void TestValidatorGraph::reachability_data()
{
    addColumns();
    row("unreachable expert",
        edit(minimal,
             [](json& t) {
                 t["nodes"].push_back(expertNode("x"));
                 t["edges"].push_back(edgeJson("x", "e"));
             }),
        {warn("/nodes/3", "\"x\" is not reachable from the input", {.node = "x"})});
    row("no output reachable", edit(minimal, [](json& t) { t["edges"].erase(0); }),
        {warn("/nodes/1", "\"e\" is not reachable from the input", {.node = "e"}),
         warn("/nodes/2", "\"out\" is not reachable from the input", {.node = "out"}),
         err("/nodes", "no output node is reachable from the input")});
    row("unreachable coordinator and member", edit(coordinatorTeam, [](json& t) { t["edges"].erase(0); }),
        {warn("/nodes/1", "\"c\" is not reachable from the input", {.node = "c"}),
         warn("/nodes/2", "\"m\" is not reachable from the input", {.node = "m"}),
         warn("/nodes/3", "\"out\" is not reachable from the input", {.node = "out"}),
         err("/nodes", "no output node is reachable from the input")});
    row("one of two outputs reachable",
        edit(minimal,
             [](json& t) {
                 t["nodes"].push_back(expertNode("x"));
                 t["nodes"].push_back(outputNode("out2"));
                 t["edges"].push_back(edgeJson("x", "out2"));
             }),
        {warn("/nodes/3", "\"x\" is not reachable from the input", {.node = "x"}),
         warn("/nodes/4", "\"out2\" is not reachable from the input", {.node = "out2"})});
}

QTEST_GUILESS_MAIN(TestValidatorGraph)
#include "tst_validatorgraph.moc"
