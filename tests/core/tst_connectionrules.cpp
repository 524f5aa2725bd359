// ConnectionRules: which edges an editor may add, and the exact reason when not.
#include <QtTest>

#include "conclave/io/TeamFile.h"
#include "conclave/model/NodeFactory.h"
#include "conclave/validate/ConnectionRules.h"
#include "conclave/validate/Validator.h"

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

    // in -> fast (cascade: quick, then the debate "meeting" of math, facts, reasoner) -> out; on their own
    // the cascades c2 (holding c3, holding c5) and c4, an adaptive ad, a round_robin rr and a coordinator
    // with no mode yet. The last column: the validator, given the edge, says the same (or, for an
    // allowed edge, says nothing about it).
    void meetingsAsMembers_data()
    {
        QTest::addColumn<QString>("from");
        QTest::addColumn<QString>("to");
        QTest::addColumn<bool>("member");
        QTest::addColumn<QString>("reason");
        QTest::addColumn<bool>("validatorAgrees");
        const auto notAHolder = [](const char* member, const char* coordinator, const char* mode) {
            return QStringLiteral("coordinator \"%1\" cannot be a member of \"%2\": only a cascade or adaptive "
                                  "coordinator may have a coordinator as a member (\"%2\" is a %3)")
                .arg(member, coordinator, mode);
        };
        QTest::newRow("a cascade may hold a coordinator") << "fast"
                                                          << "c4" << true << "" << true;
        QTest::newRow("an adaptive meeting may") << "ad"
                                                 << "c4" << true << "" << true;
        QTest::newRow("a cascade may hold a debate") << "c4"
                                                     << "rr" << true << "" << true;
        QTest::newRow("a debate may not") << "meeting"
                                          << "c4" << true << notAHolder("c4", "meeting", "debate") << true;
        QTest::newRow("a round_robin may not") << "rr"
                                               << "c4" << true << notAHolder("c4", "rr", "round_robin") << true;
        QTest::newRow("nor a coordinator with no mode")
            << "plain"
            << "c4" << true << notAHolder("c4", "plain", "round_robin") << true;
        QTest::newRow("an expert still may") << "meeting"
                                             << "lone" << true << "" << true;
        QTest::newRow("already a member")
            << "fast"
            << "meeting" << true << "coordinator \"meeting\" is already a member of \"fast\"" << false;
        QTest::newRow("a member of another")
            << "c2"
            << "meeting" << true << "coordinator \"meeting\" is already a member of coordinator \"fast\"" << false;
        QTest::newRow("a coordinator with ordinary edges")
            << "c2"
            << "fast" << true << "coordinator \"fast\" has ordinary edges, so it cannot be a coordinator's member"
            << false;
        QTest::newRow("a circle of two") << "c3"
                                         << "c2" << true
                                         << "coordinator \"c2\" reaches itself through its members: c2 -> c3 -> c2"
                                         << true;
        QTest::newRow("a circle of three")
            << "c5"
            << "c2" << true << "coordinator \"c2\" reaches itself through its members: c2 -> c3 -> c5 -> c2" << true;
        QTest::newRow("itself") << "c2"
                                << "c2" << true << "a node cannot be connected to itself" << false;
        QTest::newRow("a flow edge into a member meeting")
            << "in"
            << "meeting" << false
            << "coordinator \"meeting\" is a coordinator's member, so it cannot also have ordinary edges" << false;
        QTest::newRow("a flow edge out of a member meeting")
            << "c3"
            << "out" << false << "coordinator \"c3\" is a coordinator's member, so it cannot also have ordinary edges"
            << false;
    }

    void meetingsAsMembers()
    {
        QFETCH(QString, from);
        QFETCH(QString, to);
        QFETCH(bool, member);
        QFETCH(QString, reason);
        QFETCH(bool, validatorAgrees);
        using conclave::CoordinatorMode;
        using conclave::NodeKind;
        conclave::Team team;
        const auto add = [&](const char* id, NodeKind kind, std::optional<CoordinatorMode> mode = {}) {
            conclave::Node n;
            n.id = NodeId(id);
            n.kind = kind;
            n.config.mode = mode;
            team.nodes.push_back(n);
        };
        const auto connect = [&](const char* a, const char* b, EdgeRole role) {
            team.edges.push_back({NodeId(a), NodeId(b), std::nullopt, role, {}});
        };
        add("in", NodeKind::Input);
        add("fast", NodeKind::Coordinator, CoordinatorMode::Cascade);
        add("quick", NodeKind::Expert);
        add("meeting", NodeKind::Coordinator, CoordinatorMode::Debate);
        for (const char* id : {"math", "facts", "reasoner", "lone"})
            add(id, NodeKind::Expert);
        add("out", NodeKind::Output);
        for (const char* id : {"c2", "c3", "c4", "c5"})
            add(id, NodeKind::Coordinator, CoordinatorMode::Cascade);
        add("ad", NodeKind::Coordinator, CoordinatorMode::Adaptive);
        add("rr", NodeKind::Coordinator, CoordinatorMode::RoundRobin);
        add("plain", NodeKind::Coordinator);
        connect("in", "fast", EdgeRole::Flow);
        connect("fast", "quick", EdgeRole::Member);
        connect("fast", "meeting", EdgeRole::Member);
        for (const char* id : {"math", "facts", "reasoner"})
            connect("meeting", id, EdgeRole::Member);
        connect("fast", "out", EdgeRole::Flow);
        connect("c2", "c3", EdgeRole::Member);
        connect("c3", "c5", EdgeRole::Member);

        const NodeId a(from.toStdString());
        const NodeId b(to.toStdString());
        const EdgeRole role = member ? EdgeRole::Member : EdgeRole::Flow;
        const auto refusal = ConnectionRules::refusal(team, a, b, role);
        QCOMPARE(QString::fromStdString(refusal.value_or("")), reason);
        if (!validatorAgrees)
            return;
        // The validator's errors at the new edge (a circle is told at the edge that closes it: this one).
        team.edges.push_back({a, b, std::nullopt, role, {}});
        QStringList said;
        for (const auto& problem : conclave::validate(team)) {
            if (problem.isError() && problem.edge == team.edges.size() - 1)
                said << QString::fromStdString(problem.message);
        }
        QCOMPARE(said, reason.isEmpty() ? QStringList() : QStringList{reason});
    }
};

QTEST_GUILESS_MAIN(TestConnectionRules)
#include "tst_connectionrules.moc"
