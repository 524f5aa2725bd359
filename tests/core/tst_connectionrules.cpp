// ConnectionRules: which edges an editor may add, and the exact reason when not.
#include <QtTest>

#include "conclave/io/TeamFile.h"
#include "conclave/model/NodeFactory.h"
#include "conclave/validate/ConnectionRules.h"

using conclave::ConnectionRules;
using conclave::EdgeRole;
using conclave::NodeId;

Q_DECLARE_METATYPE(conclave::NodeKind)
Q_DECLARE_METATYPE(std::optional<conclave::RouterStrategy>)

class TestConnectionRules : public QObject {
    Q_OBJECT

private slots:
    void reasons_data()
    {
        QTest::addColumn<QString>("from");
        QTest::addColumn<QString>("to");
        QTest::addColumn<bool>("member");
        QTest::addColumn<QString>("reason");
        // triage: in -> intake -> gate/planner; gate -> math, code, facts, writing -> best -> merge -> out;
        // planner has members sub_math, sub_facts, sub_general.
        QTest::newRow("allowed") << "in"
                                 << "math" << false << "";
        QTest::newRow("cycle") << "merge"
                               << "gate" << false
                               << "the edge would make a cycle: gate -> math -> best -> merge -> gate";
        QTest::newRow("out of the output") << "out"
                                           << "math" << false << "an output node cannot have outgoing edges";
        QTest::newRow("into the input") << "math"
                                        << "in" << false << "the input node cannot have incoming edges";
        QTest::newRow("self") << "math"
                              << "math" << false << "a node cannot be connected to itself";
        QTest::newRow("member from an expert")
            << "math"
            << "code" << true << "a member edge must start at a coordinator; \"math\" is an expert";
        QTest::newRow("member to an aggregator")
            << "planner"
            << "best" << true << "a coordinator's members must be experts or coordinators; \"best\" is an aggregator";
        QTest::newRow("flow into a member") << "in"
                                            << "sub_math" << false
                                            << "expert \"sub_math\" is a coordinator's member, so it cannot also have "
                                               "ordinary edges";
        QTest::newRow("unknown") << "nobody"
                                 << "math" << false << "unknown node \"nobody\"";
        QTest::newRow("second output input")
            << "math"
            << "out" << false << "an output node takes exactly one incoming edge; \"out\" already has one";
        QTest::newRow("router twice is fine") << "gate"
                                              << "math" << false << "";
    }

    void reasons()
    {
        QFETCH(QString, from);
        QFETCH(QString, to);
        QFETCH(bool, member);
        QFETCH(QString, reason);
        const auto loaded = conclave::loadTeamFile(CONCLAVE_RESOURCES "/examples/triage.team.json");
        QVERIFY(loaded.team);
        const auto refusal =
            ConnectionRules::refusal(*loaded.team, NodeId(from.toStdString()), NodeId(to.toStdString()),
                                     member ? EdgeRole::Member : EdgeRole::Flow);
        QCOMPARE(QString::fromStdString(refusal.value_or("")), reason);
    }

    // A router chooses among its edges by label, except a broadcast (all) router.
    void needsRouteLabel_data()
    {
        QTest::addColumn<conclave::NodeKind>("kind");
        QTest::addColumn<std::optional<conclave::RouterStrategy>>("strategy");
        QTest::addColumn<bool>("needed");
        using conclave::NodeKind;
        using conclave::RouterStrategy;
        QTest::newRow("all") << NodeKind::Router << std::optional(RouterStrategy::All) << false;
        QTest::newRow("keyword") << NodeKind::Router << std::optional(RouterStrategy::Keyword) << true;
        QTest::newRow("moe_gate") << NodeKind::Router << std::optional(RouterStrategy::MoeGate) << true;
        QTest::newRow("llm") << NodeKind::Router << std::optional(RouterStrategy::Llm) << true;
        QTest::newRow("router without a strategy") << NodeKind::Router << std::optional<RouterStrategy>() << true;
        QTest::newRow("expert") << NodeKind::Expert << std::optional<RouterStrategy>() << false;
        QTest::newRow("coordinator") << NodeKind::Coordinator << std::optional<RouterStrategy>() << false;
    }

    void needsRouteLabel()
    {
        QFETCH(conclave::NodeKind, kind);
        QFETCH(std::optional<conclave::RouterStrategy>, strategy);
        QFETCH(bool, needed);
        auto node = conclave::NodeFactory::make(kind, NodeId("n"));
        node.config.routerStrategy = strategy;
        QCOMPARE(ConnectionRules::needsRouteLabel(node), needed);
    }

    void newRouteLabel()
    {
        const auto loaded = conclave::loadTeamFile(CONCLAVE_RESOURCES "/examples/triage.team.json");
        QVERIFY(loaded.team);
        auto team = *loaded.team;
        // gate's edges are labelled math, code, facts and writing.
        QCOMPARE(ConnectionRules::newRouteLabel(team, NodeId("gate"), NodeId("best")), std::string("best"));
        QCOMPARE(ConnectionRules::newRouteLabel(team, NodeId("gate"), NodeId("math")), std::string("math_2"));
        conclave::Edge second;
        second.from = NodeId("gate");
        second.to = NodeId("math");
        second.when = "math_2";
        team.edges.push_back(second);
        QCOMPARE(ConnectionRules::newRouteLabel(team, NodeId("gate"), NodeId("math")), std::string("math_3"));
        // Another router's labels do not count.
        QCOMPARE(ConnectionRules::newRouteLabel(team, NodeId("intake"), NodeId("math")), std::string("math"));
    }

    // Its labels choose nothing, so a broadcast router reaches a target once, like any other node.
    void broadcastRouterReachesATargetOnce()
    {
        const auto loaded = conclave::loadTeamFile(CONCLAVE_RESOURCES "/examples/mixture-of-agents.team.json");
        QVERIFY(loaded.team);
        QCOMPARE(QString::fromStdString(
                     ConnectionRules::refusal(*loaded.team, NodeId("fanout"), NodeId("l1_reasoner"), EdgeRole::Flow)
                         .value_or("")),
                 QString("there is already an edge from \"fanout\" to \"l1_reasoner\""));
    }

    void uniqueIds()
    {
        conclave::Team team;
        team.nodes.push_back(conclave::NodeFactory::make(conclave::NodeKind::Expert, NodeId("expert")));
        team.nodes.push_back(conclave::NodeFactory::make(conclave::NodeKind::Expert, NodeId("expert_2")));
        QCOMPARE(conclave::NodeFactory::uniqueId(team, "expert").str(), std::string("expert_3"));
        QCOMPARE(conclave::NodeFactory::uniqueId(team, "expert_2").str(), std::string("expert_3"));
        QCOMPARE(conclave::NodeFactory::uniqueId(team, "a b").str(), std::string("a_b"));
        QCOMPARE(conclave::NodeFactory::uniqueId(team, "").str(), std::string("node"));
    }

    // fast-path: in -> fast (cascade: quick, then the debate meeting of math, facts, reasoner) -> out,
    // with two more cascades c2 and c3 on their own, c3 a member of c2.
    void meetingsAsMembers_data()
    {
        QTest::addColumn<QString>("from");
        QTest::addColumn<QString>("to");
        QTest::addColumn<bool>("member");
        QTest::addColumn<QString>("reason");
        QTest::newRow("a cascade may hold a coordinator") << "fast" << "c2" << true << "";
        QTest::newRow("a debate may not")
            << "meeting" << "c2" << true
            << "only a cascade or adaptive coordinator may have a coordinator as a member; \"meeting\" is a debate "
               "and \"c2\" is a coordinator";
        QTest::newRow("already a member") << "fast" << "meeting" << true
                                          << "coordinator \"meeting\" is already a member of \"fast\"";
        QTest::newRow("a member of another")
            << "c2" << "meeting" << true << "coordinator \"meeting\" is already a member of coordinator \"fast\"";
        QTest::newRow("a coordinator with ordinary edges")
            << "c2" << "fast" << true << "coordinator \"fast\" has ordinary edges, so it cannot be a coordinator's member";
        QTest::newRow("a circle") << "c3" << "c2" << true
                                  << "coordinator \"c2\" would reach itself through its members: c2 -> c3 -> c2";
        QTest::newRow("a flow edge into a member meeting")
            << "in" << "meeting" << false
            << "coordinator \"meeting\" is a coordinator's member, so it cannot also have ordinary edges";
    }

    void meetingsAsMembers()
    {
        QFETCH(QString, from);
        QFETCH(QString, to);
        QFETCH(bool, member);
        QFETCH(QString, reason);
        const auto loaded = conclave::loadTeamFile(CONCLAVE_RESOURCES "/examples/fast-path.team.json");
        QVERIFY(loaded.team);
        auto team = *loaded.team;
        for (const char* id : {"c2", "c3"}) {
            conclave::Node c;
            c.id = NodeId(id);
            c.kind = conclave::NodeKind::Coordinator;
            c.config.mode = conclave::CoordinatorMode::Cascade;
            team.nodes.push_back(c);
        }
        conclave::Edge held;
        held.from = NodeId("c2");
        held.to = NodeId("c3");
        held.role = EdgeRole::Member;
        team.edges.push_back(held);
        const auto refusal = ConnectionRules::refusal(team, NodeId(from.toStdString()), NodeId(to.toStdString()),
                                                      member ? EdgeRole::Member : EdgeRole::Flow);
        QCOMPARE(QString::fromStdString(refusal.value_or("")), reason);
    }
};

QTEST_GUILESS_MAIN(TestConnectionRules)
#include "tst_connectionrules.moc"
