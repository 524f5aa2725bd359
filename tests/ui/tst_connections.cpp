// Drag-to-connect refuses what the validator would reject, with the reason
// the user reads in the status bar, and changes nothing when it refuses.
#include <QtTest>

#include "EditorChecks.h"

#include "studio/MainWindow.h"

#include <QStandardPaths>
#include <QUndoStack>

using conclave::NodeId;
using conclave::ui::MainWindow;
using Role = conclave::ui::PortItem::Role;

Q_DECLARE_METATYPE(Role)

class TestConnections : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void refusedWithReason_data()
    {
        QTest::addColumn<QString>("from");
        QTest::addColumn<Role>("fromPort");
        QTest::addColumn<QString>("to");
        QTest::addColumn<Role>("toPort");
        QTest::addColumn<QString>("reason");
        // keyword-vote: in -> route(keyword) -> math, general -> vote -> out
        QTest::newRow("output to output") << "math" << Role::Out << "general" << Role::Out
                                          << "both ends are output ports; connect an output port to an input port";
        QTest::newRow("input to input") << "math" << Role::In << "general" << Role::In
                                        << "both ends are input ports; connect an output port to an input port";
        QTest::newRow("cycle") << "vote" << Role::Out << "math" << Role::In
                               << "the edge would make a cycle: math -> vote -> math";
        QTest::newRow("to itself") << "math" << Role::Out << "math" << Role::In
                                   << "a node cannot be connected to itself";
        QTest::newRow("second edge into the output") << "math" << Role::Out << "out" << Role::In
                                                     << "an output node takes exactly one incoming edge; \"out\" "
                                                        "already has one";
        QTest::newRow("twice") << "math" << Role::Out << "vote" << Role::In
                               << "there is already an edge from \"math\" to \"vote\"";
    }

    void refusedWithReason()
    {
        QFETCH(QString, from);
        QFETCH(Role, fromPort);
        QFETCH(QString, to);
        QFETCH(Role, toPort);
        QFETCH(QString, reason);
        MainWindow window;
        QVERIFY(window.openFile(CONCLAVE_RESOURCES "/examples/keyword-vote.team.json", false));
        const auto before = window.document()->team();
        auto* scene = window.scene();
        const auto* source = scene->nodeItem(NodeId(from.toStdString()))->port(fromPort);
        const auto* target = scene->nodeItem(NodeId(to.toStdString()))->port(toPort);
        QVERIFY(source && target);
        QCOMPARE(scene->portRefusal(source, target).value_or(QString()), reason);
        QString why;
        QVERIFY(!scene->connectPorts(source, target, &why));
        QCOMPARE(why, reason);
        QVERIFY(window.document()->team() == before);
        QCOMPARE(window.document()->undoStack()->count(), 0);
    }

    void memberEdgeFromANonCoordinator()
    {
        MainWindow window;
        QVERIFY(window.openFile(CONCLAVE_RESOURCES "/examples/keyword-vote.team.json", false));
        QString why;
        QVERIFY(
            !window.document()->requestConnect(NodeId("math"), NodeId("general"), conclave::EdgeRole::Member, &why));
        QCOMPARE(why, QString("a member edge must start at a coordinator; \"math\" is an expert"));
        // The input node has no input port; dropping on its body says why.
        QSignalSpy messages(window.scene(), &conclave::ui::TeamScene::statusMessage);
        auto* scene = window.scene();
        scene->beginConnection(scene->nodeItem(NodeId("math"))->port(Role::Out));
        scene->endConnection(scene->nodeItem(NodeId("in"))->sceneBoundingRect().center());
        QCOMPARE(messages.last().first().toString(),
                 QString("Cannot connect: the input node cannot have incoming edges"));
        QCOMPARE(window.document()->undoStack()->count(), 0);
    }

    void memberEdgeRules()
    {
        MainWindow window;
        QVERIFY(window.openFile(CONCLAVE_RESOURCES "/examples/triage.team.json", false));
        auto* scene = window.scene();
        const auto* members = scene->nodeItem(NodeId("planner"))->port(Role::Members);
        QVERIFY(members);
        // An expert already in the flow cannot also be a member.
        QCOMPARE(scene->portRefusal(members, scene->nodeItem(NodeId("math"))->port(Role::In)).value_or(""),
                 QString("expert \"math\" has ordinary edges, so it cannot be a coordinator's member"));
        QCOMPARE(scene->portRefusal(members, scene->nodeItem(NodeId("best"))->port(Role::In)).value_or(""),
                 QString("a coordinator's members must be experts; \"best\" is an aggregator"));
        QCOMPARE(scene->portRefusal(members, scene->nodeItem(NodeId("sub_math"))->port(Role::In)).value_or(""),
                 QString("expert \"sub_math\" is already a member of \"planner\""));
        // A fresh expert can join: the edge is a member edge, drawn dashed from the diamond port.
        const QPointF at(900, 900);
        window.addNode(conclave::NodeKind::Expert, &at);
        QVERIFY(scene->connectPorts(members, scene->nodeItem(NodeId("expert"))->port(Role::In)));
        QVERIFY(window.document()->team().edges.back().isMember());
        QCOMPARE(sceneInconsistency(*window.document(), *scene), QString());
    }

    void validTargetsAreHighlightedDuringADrag()
    {
        MainWindow window;
        QVERIFY(window.openFile(CONCLAVE_RESOURCES "/examples/keyword-vote.team.json", false));
        auto* scene = window.scene();
        auto* source = scene->nodeItem(NodeId("math"))->port(Role::Out);
        QSignalSpy messages(scene, &conclave::ui::TeamScene::statusMessage);
        scene->beginConnection(source);
        using H = conclave::ui::PortItem::Highlight;
        QVERIFY(scene->nodeItem(NodeId("vote"))->port(Role::In)->highlight() == H::Invalid); // already connected
        QVERIFY(scene->nodeItem(NodeId("general"))->port(Role::In)->highlight() == H::Valid);
        QVERIFY(scene->nodeItem(NodeId("in"))->port(Role::Out)->highlight() == H::Invalid);
        // Dropping on the router's input is refused with the reason in the status bar.
        const QPointF inPort = scene->nodeItem(NodeId("route"))->port(Role::In)->scenePos();
        scene->endConnection(inPort);
        QVERIFY(scene->nodeItem(NodeId("general"))->port(Role::In)->highlight() == H::None);
        QCOMPARE(messages.last().first().toString(),
                 QString("Cannot connect: the edge would make a cycle: route -> math -> route"));
        QCOMPARE(window.document()->undoStack()->count(), 0);
    }
};

QTEST_MAIN(TestConnections)
#include "tst_connections.moc"
