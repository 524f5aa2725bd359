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

} // namespace

class TestValidatorNesting : public QObject, private ValidatorRows {
    Q_OBJECT

private slots:
    void initTestCase() { QVERIFY(loadCatalog()); }

    void nesting_data()
    {
        addColumns();
        row("a cascade holding a debate", unchanged(fastPath), {});
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
                << QStringList{err("/edges/3/role",
                                   "only a cascade or adaptive coordinator may have a coordinator as a member; \"c\" "
                                   "is a " + m + " and \"c2\" is a coordinator",
                                   {.edge = 3}),
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
            {err("/edges/2", "coordinator \"a\" reaches itself through its members: a -> b -> a",
                 {.node = "a", .edge = 2}),
             warn("/nodes/3", "\"a\" is not reachable from the input", {.node = "a"}),
             warn("/nodes/4", "\"b\" is not reachable from the input", {.node = "b"})});
        // Said once, from the circle's first coordinator in node order, at its member edge into the circle.
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
            {err("/edges/2", "coordinator \"x\" reaches itself through its members: x -> y -> z -> x",
                 {.node = "x", .edge = 2}),
             warn("/nodes/3", "\"x\" is not reachable from the input", {.node = "x"}),
             warn("/nodes/4", "\"y\" is not reachable from the input", {.node = "y"}),
             warn("/nodes/5", "\"z\" is not reachable from the input", {.node = "z"})});
    }
    void nesting() { verifyRow(); }
};

QTEST_GUILESS_MAIN(TestValidatorNesting)
#include "tst_validatornesting.moc"
