// Tests the validator's rules for a meeting as a member (nested meetings)
// through conclave::validate(): which modes may hold a coordinator, a member
// coordinator's edges and owners, and coordinators that reach themselves
// through their members; each row asserts the exact list of problems.
#include <QtTest>

#include "support/ValidatorTestKit.h"

using namespace validatortest;

namespace {

json coordinatorNode(const std::string& id, const std::string& mode)
{
    return {{"id", id}, {"kind", "coordinator"}, {"mode", mode}};
}

// in -> c (cascade: m, then the debate c2 of m2) -> out.
json fastPath()
{
    auto t = coordinatorTeam();
    t["conclave"] = 2;
    t["nodes"][1]["mode"] = "cascade";
    t["nodes"].push_back(coordinatorNode("c2", "debate"));
    t["nodes"].push_back(expertNode("m2", "{{task}}"));
    t["edges"].push_back(memberEdge("c", "c2"));
    t["edges"].push_back(memberEdge("c2", "m2"));
    return t;
}

// The design of issue #19: in -> fast (cascade: quick, then the debate panel of a, b, d) -> out.
json escalation()
{
    auto t = minimal();
    t["conclave"] = 2;
    t["nodes"] = {inputNode(),
                  {{"id", "fast"}, {"kind", "coordinator"}, {"mode", "cascade"}, {"threshold", 0.7}},
                  expertNode("quick", "{{task}}"),
                  coordinatorNode("panel", "debate"),
                  expertNode("a", "{{task}}\n{{transcript}}"),
                  expertNode("b", "{{task}}\n{{transcript}}"),
                  expertNode("d", "{{task}}\n{{transcript}}"),
                  outputNode()};
    t["edges"] = {edgeJson("in", "fast"),   memberEdge("fast", "quick"), memberEdge("fast", "panel"),
                  memberEdge("panel", "a"), memberEdge("panel", "b"),    memberEdge("panel", "d"),
                  edgeJson("fast", "out")};
    return t;
}

std::string notAMeetingHolder(const std::string& member, const std::string& coordinator, const std::string& mode)
{
    return "coordinator \"" + member + "\" cannot be a member of \"" + coordinator +
           "\": only a cascade or adaptive coordinator may have a coordinator as a member (\"" + coordinator +
           "\" is a " + mode + ")";
}

} // namespace

class TestValidatorNesting : public QObject, private ValidatorRows {
    Q_OBJECT

private slots:
    void initTestCase() { QVERIFY(loadCatalog()); }

    void nesting_data()
    {
        addColumns();
        row("a cascade holding a debate", unchanged(fastPath), {});
        row("an expert, then a debate of three", unchanged(escalation), {});
        // A member meeting's members see what the outer meeting's coordinator sees, not the coordinators.
        row("a nested member reading the input node", setAt(escalation, "/nodes/4/prompt", "{{task}} {{from.in}}"), {});
        row("a nested member reading its coordinators",
            setAt(escalation, "/nodes/4/prompt", "{{from.panel}} {{from.fast}}"),
            {err("/nodes/4/prompt", "{{from.panel}} refers to \"panel\", which is not upstream of \"a\"",
                 {.node = "a"}),
             err("/nodes/4/prompt", "{{from.fast}} refers to \"fast\", which is not upstream of \"a\"",
                 {.node = "a"})});
        row("an adaptive meeting holding a decompose",
            edit(fastPath,
                 [](json& t) {
                     t["nodes"][1]["mode"] = "adaptive";
                     t["nodes"][4]["mode"] = "decompose";
                     t["nodes"][4]["model"] = "local/math-13b";
                 }),
            {}, kModels);
        row("three levels", edit(fastPath,
                                 [](json& t) {
                                     t["nodes"][4]["mode"] = "cascade";
                                     t["nodes"].push_back(coordinatorNode("c3", "round_robin"));
                                     t["nodes"].push_back(expertNode("m3", "{{task}}"));
                                     t["edges"].push_back(memberEdge("c2", "c3"));
                                     t["edges"].push_back(memberEdge("c3", "m3"));
                                 }),
            {});
        // The mode decides: the same team with the outer meeting a debate (as after a change in the inspector).
        for (const char* mode : {"debate", "round_robin", "decompose"}) {
            const std::string m = mode;
            QTest::addRow("a %s holding a coordinator", mode)
                << edit(fastPath,
                        [m](json& t) {
                            t["nodes"][1]["mode"] = m;
                            if (m == "decompose")
                                t["nodes"][1]["model"] = "local/math-13b";
                        })
                << kModels
                << QStringList{err("/edges/3/role", notAMeetingHolder("c2", "c", m), {.edge = 3}),
                               warn("/nodes/4", "\"c2\" has no outgoing edges; its result is not used", {.node = "c2"}),
                               warn("/nodes/4", "\"c2\" is not reachable from the input", {.node = "c2"}),
                               warn("/nodes/5", "\"m2\" is not reachable from the input", {.node = "m2"})};
        }
        row("a member meeting with an ordinary edge",
            edit(fastPath, [](json& t) { t["edges"].push_back(edgeJson("in", "c2")); }),
            {err("/nodes/4", "coordinator \"c2\" is a coordinator's member, so it cannot also have ordinary edges",
                 {.node = "c2"})});
        row("a member meeting in two meetings",
            edit(fastPath,
                 [](json& t) {
                     t["nodes"].push_back(coordinatorNode("c3", "cascade"));
                     t["edges"].push_back(edgeJson("in", "c3"));
                     t["edges"].push_back(edgeJson("c3", "out"));
                     t["edges"].push_back(memberEdge("c3", "c2"));
                 }),
            {err("/nodes/3", "an output node needs exactly one incoming edge, has 2", {.node = "out"}),
             err("/edges/7/to", "coordinator \"c2\" is a member of more than one coordinator",
                 {.node = "c2", .edge = 7})});
        row("two coordinators holding each other",
            edit(minimal,
                 [](json& t) {
                     t["conclave"] = 2;
                     t["nodes"].push_back(coordinatorNode("a", "cascade"));
                     t["nodes"].push_back(coordinatorNode("b", "adaptive"));
                     t["edges"].push_back(memberEdge("a", "b"));
                     t["edges"].push_back(memberEdge("b", "a"));
                 }),
            {err("/edges/3", "coordinator \"a\" reaches itself through its members: a -> b -> a",
                 {.node = "a", .edge = 3}),
             warn("/nodes/3", "\"a\" is not reachable from the input", {.node = "a"}),
             warn("/nodes/4", "\"b\" is not reachable from the input", {.node = "b"})});
        // Said once, from the circle's first coordinator in node order, at the member edge that closes it.
        row("three coordinators in a circle",
            edit(minimal,
                 [](json& t) {
                     t["conclave"] = 2;
                     t["nodes"].push_back(coordinatorNode("x", "cascade"));
                     t["nodes"].push_back(coordinatorNode("y", "adaptive"));
                     t["nodes"].push_back(coordinatorNode("z", "cascade"));
                     t["edges"].push_back(memberEdge("x", "y"));
                     t["edges"].push_back(memberEdge("y", "z"));
                     t["edges"].push_back(memberEdge("z", "x"));
                 }),
            {err("/edges/4", "coordinator \"x\" reaches itself through its members: x -> y -> z -> x",
                 {.node = "x", .edge = 4}),
             warn("/nodes/3", "\"x\" is not reachable from the input", {.node = "x"}),
             warn("/nodes/4", "\"y\" is not reachable from the input", {.node = "y"}),
             warn("/nodes/5", "\"z\" is not reachable from the input", {.node = "z"})});
        row("a cascade holding itself",
            edit(minimal,
                 [](json& t) {
                     t["conclave"] = 2;
                     t["nodes"].push_back(coordinatorNode("a", "cascade"));
                     t["edges"].push_back(memberEdge("a", "a"));
                 }),
            {err("/edges/2", "coordinator \"a\" reaches itself through its members: a -> a", {.node = "a", .edge = 2}),
             warn("/nodes/3", "\"a\" is not reachable from the input", {.node = "a"})});
        // The same circle written in another edge order is named the same, closed by the edge into x.
        row("three in a circle, written backwards",
            edit(minimal,
                 [](json& t) {
                     t["conclave"] = 2;
                     t["nodes"].push_back(coordinatorNode("x", "cascade"));
                     t["nodes"].push_back(coordinatorNode("y", "adaptive"));
                     t["nodes"].push_back(coordinatorNode("z", "cascade"));
                     t["edges"].push_back(memberEdge("z", "x"));
                     t["edges"].push_back(memberEdge("y", "z"));
                     t["edges"].push_back(memberEdge("x", "y"));
                 }),
            {err("/edges/2", "coordinator \"x\" reaches itself through its members: x -> y -> z -> x",
                 {.node = "x", .edge = 2}),
             warn("/nodes/3", "\"x\" is not reachable from the input", {.node = "x"}),
             warn("/nodes/4", "\"y\" is not reachable from the input", {.node = "y"}),
             warn("/nodes/5", "\"z\" is not reachable from the input", {.node = "z"})});
        // fast holds panel, which holds y, and y and z hold each other: y has two holders, and a circle.
        row("a circle below a meeting",
            edit(escalation,
                 [](json& t) {
                     t["nodes"][3]["mode"] = "cascade";
                     t["nodes"].push_back(coordinatorNode("y", "cascade"));
                     t["nodes"].push_back(coordinatorNode("z", "adaptive"));
                     t["edges"].push_back(memberEdge("panel", "y"));
                     t["edges"].push_back(memberEdge("y", "z"));
                     t["edges"].push_back(memberEdge("z", "y"));
                 }),
            {err("/edges/9/to", "coordinator \"y\" is a member of more than one coordinator", {.node = "y", .edge = 9}),
             err("/edges/9", "coordinator \"y\" reaches itself through its members: y -> z -> y",
                 {.node = "y", .edge = 9})});
    }
    void nesting() { verifyRow(); }
};

QTEST_GUILESS_MAIN(TestValidatorNesting)
#include "tst_validatornesting.moc"
