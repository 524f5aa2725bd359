// ConnectionRules: which edges an editor may add, and the exact reason when not.
#include <QtTest>

#include "conclave/io/TeamFile.h"
#include "conclave/model/NodeFactory.h"
#include "conclave/validate/ConnectionRules.h"

using conclave::ConnectionRules;
using conclave::EdgeRole;
using conclave::NodeId;

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
            << "best" << true << "a coordinator's members must be experts; \"best\" is an aggregator";
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
};

QTEST_GUILESS_MAIN(TestConnectionRules)
#include "tst_connectionrules.moc"
