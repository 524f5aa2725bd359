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
                 QString("a coordinator's members must be experts or coordinators; \"best\" is an aggregator"));
        QCOMPARE(scene->portRefusal(members, scene->nodeItem(NodeId("sub_math"))->port(Role::In)).value_or(""),
                 QString("expert \"sub_math\" is already a member of \"planner\""));
        // A fresh expert can join: the edge is a member edge, drawn dashed from the diamond port.
        const QPointF at(900, 900);
        window.addNode(conclave::NodeKind::Expert, &at);
        QVERIFY(scene->connectPorts(members, scene->nodeItem(NodeId("expert"))->port(Role::In)));
        QVERIFY(window.document()->team().edges.back().isMember());
        QCOMPARE(sceneInconsistency(*window.document(), *scene), QString());
    }

    // fast-path: a cascade (fast) holds quick, then the debate "meeting". A
    // new coordinator may join the cascade as a member meeting, not the debate.
    void aCascadeHoldsAMeeting()
    {
        MainWindow window;
        QVERIFY(window.openFile(CONCLAVE_RESOURCES "/examples/fast-path.team.json", false));
        auto* scene = window.scene();
        const QPointF at(900, 900);
        window.addNode(conclave::NodeKind::Coordinator, &at);
        const auto* fresh = scene->nodeItem(NodeId("coordinator"))->port(Role::In);
        QVERIFY(fresh);
        QCOMPARE(scene->portRefusal(scene->nodeItem(NodeId("meeting"))->port(Role::Members), fresh).value_or(""),
                 QString("coordinator \"coordinator\" cannot be a member of \"meeting\": only a cascade or adaptive "
                         "coordinator may have a coordinator as a member (\"meeting\" is a debate)"));
        // The debate is a member already; the cascade takes the new one, drawn as a member edge.
        QCOMPARE(scene->portRefusal(scene->nodeItem(NodeId("fast"))->port(Role::Members),
                                    scene->nodeItem(NodeId("meeting"))->port(Role::In))
                     .value_or(""),
                 QString("coordinator \"meeting\" is already a member of \"fast\""));
        QVERIFY(scene->connectPorts(scene->nodeItem(NodeId("fast"))->port(Role::Members), fresh));
        QVERIFY(window.document()->team().edges.back().isMember());
        QCOMPARE(window.document()->team().edges.back().to, NodeId("coordinator"));
        QCOMPARE(sceneInconsistency(*window.document(), *scene), QString());
        // And it cannot hold the cascade back.
        QCOMPARE(scene
                     ->portRefusal(scene->nodeItem(NodeId("coordinator"))->port(Role::Members),
                                   scene->nodeItem(NodeId("fast"))->port(Role::In))
                     .value_or(""),
                 QString("coordinator \"fast\" cannot be a member of \"coordinator\": only a cascade or adaptive "
                         "coordinator may have a coordinator as a member (\"coordinator\" is a round_robin)"));
    }

    // On a new team: a cascade and a debate with an expert member each. Dragging from the
    // cascade's members port to the debate makes it a member meeting, drawn as an expert
    // member is; the same drag from the debate to the cascade is refused with the validator's words.
    void draggingAMeetingIntoACascade()
    {
        MainWindow window;
        auto* document = window.document();
        document->newTeam();
        auto* scene = window.scene();
        const auto addCoordinator = [&](conclave::CoordinatorMode mode, double y) {
            const auto id = document->requestAddNode(conclave::NodeKind::Coordinator, {400, y});
            auto config = document->node(*id)->config;
            config.mode = mode;
            document->requestSetConfig(*id, config);
            const auto expert = document->requestAddNode(conclave::NodeKind::Expert, {400, y + 150});
            document->requestConnect(*id, *expert, conclave::EdgeRole::Member);
            return *id;
        };
        const NodeId cascade = addCoordinator(conclave::CoordinatorMode::Cascade, 0);
        const NodeId debate = addCoordinator(conclave::CoordinatorMode::Debate, 400);
        QVERIFY(!(cascade == debate));
        const int steps = document->undoStack()->count();
        QSignalSpy messages(scene, &conclave::ui::TeamScene::statusMessage);
        using H = conclave::ui::PortItem::Highlight;

        // From the debate: its target lights up as invalid, and the drop says why.
        scene->beginConnection(scene->nodeItem(debate)->port(Role::Members));
        QVERIFY(scene->nodeItem(cascade)->port(Role::In)->highlight() == H::Invalid);
        scene->endConnection(scene->nodeItem(cascade)->port(Role::In)->scenePos());
        const QString refused = QString("coordinator \"%1\" cannot be a member of \"%2\": only a cascade or adaptive "
                                        "coordinator may have a coordinator as a member (\"%2\" is a debate)")
                                    .arg(QString::fromStdString(cascade.str()), QString::fromStdString(debate.str()));
        QCOMPARE(messages.last().first().toString(), "Cannot connect: " + refused);
        QCOMPARE(document->undoStack()->count(), steps);

        // From the cascade: the debate's input is a valid target; dropping on its body connects.
        scene->beginConnection(scene->nodeItem(cascade)->port(Role::Members));
        QVERIFY(scene->nodeItem(debate)->port(Role::In)->highlight() == H::Valid);
        scene->endConnection(scene->nodeItem(debate)->sceneBoundingRect().center());
        QCOMPARE(messages.last().first().toString(), QString("Connected"));
        QCOMPARE(document->undoStack()->count(), steps + 1);
        const auto& held = document->team().edges.back();
        QVERIFY(held.isMember());
        QCOMPARE(held.from, cascade);
        QCOMPARE(held.to, debate);
        QVERIFY(scene->edgeItems().back()->isMember());
        QCOMPARE(sceneInconsistency(*document, *scene), QString());
        QCOMPARE(conclave::formatVersionNeeded(document->team()), int64_t(2));
        // Now the debate cannot hold the cascade back, whatever its mode: that would be a circle.
        auto config = document->node(debate)->config;
        config.mode = conclave::CoordinatorMode::Cascade;
        QVERIFY(document->requestSetConfig(debate, config));
        QString why;
        QVERIFY(!scene->connectPorts(scene->nodeItem(debate)->port(Role::Members),
                                     scene->nodeItem(cascade)->port(Role::In), &why));
        QCOMPARE(why, QString("coordinator \"%1\" reaches itself through its members: %1 -> %2 -> %1")
                          .arg(QString::fromStdString(cascade.str()), QString::fromStdString(debate.str())));
        QCOMPARE(document->undoStack()->count(), steps + 2);
    }

    // A router that chooses by label gives the new edge one; a broadcast router's edge gets none.
    void routeLabelOfANewEdge_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("router");
        QTest::addColumn<QString>("when"); // empty: no when at all
        QTest::newRow("all") << "mixture-of-agents"
                             << "fanout"
                             << "";
        QTest::newRow("keyword") << "keyword-vote"
                                 << "route"
                                 << "expert";
        QTest::newRow("moe_gate") << "triage"
                                  << "gate"
                                  << "expert";
        QTest::newRow("llm") << "triage"
                             << "intake"
                             << "expert";
    }

    void routeLabelOfANewEdge()
    {
        QFETCH(QString, file);
        QFETCH(QString, router);
        QFETCH(QString, when);
        MainWindow window;
        QVERIFY(window.openFile(CONCLAVE_RESOURCES "/examples/" + file + ".team.json", false));
        auto* scene = window.scene();
        const QPointF at(900, 900);
        window.addNode(conclave::NodeKind::Expert, &at);
        QVERIFY(scene->connectPorts(scene->nodeItem(NodeId(router.toStdString()))->port(Role::Out),
                                    scene->nodeItem(NodeId("expert"))->port(Role::In)));
        const auto& edge = window.document()->team().edges.back();
        QCOMPARE(edge.from.str(), router.toStdString());
        QCOMPARE(edge.to.str(), std::string("expert"));
        if (when.isEmpty())
            QVERIFY(!edge.when);
        else
            QCOMPARE(QString::fromStdString(edge.when.value_or("(none)")), when);
        // The validator agrees: the new edge has no problem.
        const size_t index = window.document()->team().edges.size() - 1;
        for (const auto& p : window.document()->problems())
            QVERIFY2(p.edge != index, p.message.c_str());
        QCOMPARE(sceneInconsistency(*window.document(), *scene), QString());
    }

    // A broadcast router that starts choosing gets labels on its unlabelled edges in the same
    // undo step; labels already there are kept through every strategy change.
    void changingTheStrategyKeepsLabels()
    {
        MainWindow window;
        QVERIFY(window.openFile(CONCLAVE_RESOURCES "/examples/mixture-of-agents.team.json", false));
        auto* document = window.document();
        auto* scene = window.scene();
        const QPointF at(900, 900);
        window.addNode(conclave::NodeKind::Expert, &at);
        QVERIFY(scene->connectPorts(scene->nodeItem(NodeId("fanout"))->port(Role::Out),
                                    scene->nodeItem(NodeId("expert"))->port(Role::In)));
        const auto labels = [&] {
            QStringList out;
            for (const auto& e : document->team().edges) {
                if (e.from == NodeId("fanout"))
                    out << QString::fromStdString(e.when.value_or("(none)"));
            }
            return out;
        };
        const QStringList before{"reasoner", "general", "facts", "(none)"};
        const QStringList labelled{"reasoner", "general", "facts", "expert"};
        QCOMPARE(labels(), before);
        const auto setStrategy = [&](conclave::RouterStrategy strategy) {
            auto config = document->node(NodeId("fanout"))->config;
            config.routerStrategy = strategy;
            return document->requestSetConfig(NodeId("fanout"), config);
        };
        auto* stack = document->undoStack();
        const int index = stack->index();
        QVERIFY(setStrategy(conclave::RouterStrategy::MoeGate));
        QCOMPARE(stack->index(), index + 1); // one undo step
        QCOMPARE(labels(), labelled);
        QCOMPARE(sceneInconsistency(*document, *scene), QString());
        stack->undo();
        QCOMPARE(labels(), before);
        QVERIFY(document->node(NodeId("fanout"))->config.routerStrategy == conclave::RouterStrategy::All);
        QCOMPARE(sceneInconsistency(*document, *scene), QString());
        stack->redo();
        QCOMPARE(labels(), labelled);
        QCOMPARE(sceneInconsistency(*document, *scene), QString());
        // Back to broadcasting, and on to another choosing strategy: no label is dropped or renamed.
        QVERIFY(setStrategy(conclave::RouterStrategy::All));
        QCOMPARE(labels(), labelled);
        QVERIFY(setStrategy(conclave::RouterStrategy::Llm));
        QCOMPARE(labels(), labelled);
        QCOMPARE(stack->index(), index + 3);
        QCOMPARE(sceneInconsistency(*document, *scene), QString());
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
