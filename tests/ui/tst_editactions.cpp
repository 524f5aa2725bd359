// The Edit and Insert menus' controller: adding nodes (snapped to the grid),
// templates and palette entries, the clipboard, duplicate, delete, select
// all, route labels, the actions' shortcuts and where they act, and the
// status messages the edits show.
#include <QtTest>

#include "EditorChecks.h"
#include "StatusSpy.h"

#include "document/TeamDocument.h"
#include "editor/CanvasView.h"
#include "editor/TeamScene.h"
#include "studio/EditActions.h"

#include <QClipboard>
#include <QDialog>
#include <QStandardPaths>
#include <QUndoStack>

using namespace conclave;
using conclave::ui::EditActions;

namespace {

const QString kTeam = QStringLiteral(CONCLAVE_RESOURCES "/examples/keyword-vote.team.json");
const QString kTemplate = QStringLiteral(CONCLAVE_RESOURCES "/examples/cascade.team.json");

// The example team on a canvas, and the controller over them in a window of its own.
struct Edits {
    Edits(const QString& file = kTeam)
    {
        if (!file.isEmpty())
            QVERIFY(document.load(file).isEmpty());
    }
    QWidget window;
    ui::TeamDocument document;
    ui::TeamScene scene{&document};
    ui::CanvasView view{&scene};
    ui::StudioFeedback feedback;
    EditActions* edits = new EditActions(&document, &scene, &view, &feedback, &window);

    QAction* action(const QString& name) const { return window.findChild<QAction*>(name); }
    std::vector<std::string> ids() const
    {
        std::vector<std::string> out;
        for (const auto& n : document.team().nodes)
            out.push_back(n.id.str());
        return out;
    }
};

// Closes the dialog the next call opens, as Cancel would.
void rejectTheNextDialog()
{
    QTimer::singleShot(0, [] {
        if (auto* dialog = qobject_cast<QDialog*>(QApplication::activeModalWidget()))
            dialog->reject();
    });
}

} // namespace

class TestEditActions : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void aNodeLandsOnTheGridAndIsSelected()
    {
        Edits e;
        const QPointF at(100, 100); // its centre: the node's corner is 80, 28 up and left, then snapped
        e.edits->addNode(NodeKind::Expert, &at);
        const auto& added = e.document.team().nodes.back();
        QVERIFY(added.kind == NodeKind::Expert);
        QVERIFY(added.pos == (Position{20, 80}));
        QCOMPARE(e.scene.selectedNodes(), std::vector<NodeId>{added.id});
        QCOMPARE(e.document.undoStack()->count(), 1);
        QCOMPARE(sceneInconsistency(e.document, e.scene), QString());
    }

    void addActionsOnePerKind_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("text");
        QTest::addColumn<QKeySequence>("shortcut");
        QTest::addColumn<int>("kind");
        QTest::newRow("input") << "actionAddInput"
                               << "Add Input" << QKeySequence("Alt+1") << int(NodeKind::Input);
        QTest::newRow("router") << "actionAddRouter"
                                << "Add Router" << QKeySequence("Alt+2") << int(NodeKind::Router);
        QTest::newRow("expert") << "actionAddExpert"
                                << "Add Expert" << QKeySequence("Alt+3") << int(NodeKind::Expert);
        QTest::newRow("coordinator") << "actionAddCoordinator"
                                     << "Add Coordinator" << QKeySequence("Alt+4") << int(NodeKind::Coordinator);
        QTest::newRow("aggregator") << "actionAddAggregator"
                                    << "Add Aggregator" << QKeySequence("Alt+5") << int(NodeKind::Aggregator);
        QTest::newRow("output") << "actionAddOutput"
                                << "Add Output" << QKeySequence("Alt+6") << int(NodeKind::Output);
    }

    void addActionsOnePerKind()
    {
        QFETCH(QString, name);
        QFETCH(QString, text);
        QFETCH(QKeySequence, shortcut);
        QFETCH(int, kind);
        Edits e;
        auto* add = e.action(name);
        QVERIFY(add);
        QCOMPARE(add->text(), text);
        QCOMPARE(add->shortcut(), shortcut);
        QVERIFY(!add->icon().isNull());
        add->trigger();
        QCOMPARE(e.document.team().nodes.size(), size_t(7));
        QCOMPARE(int(e.document.team().nodes.back().kind), kind);
        QCOMPARE(e.scene.selectedNodes(), std::vector<NodeId>{e.document.team().nodes.back().id});
    }

    void paletteEntries()
    {
        Edits e(QString{});
        e.edits->addPaletteEntry("kind:router", nullptr);
        QCOMPARE(e.ids(), std::vector<std::string>{"router"});
        e.edits->addPaletteEntry("kind:nonsense", nullptr);
        e.edits->addPaletteEntry("something else", nullptr);
        QCOMPARE(e.document.team().nodes.size(), size_t(1));
        QCOMPARE(e.document.undoStack()->count(), 1);
    }

    // Into an empty team, a template keeps its own places; one undo step removes it.
    void aTemplateGoesInWhole()
    {
        Edits e(QString{});
        ui::TeamDocument source;
        QVERIFY(source.load(kTemplate).isEmpty());
        e.edits->addPaletteEntry("template:" + kTemplate, nullptr);
        QCOMPARE(e.document.team().nodes.size(), source.team().nodes.size());
        for (size_t i = 0; i < source.team().nodes.size(); ++i) {
            QCOMPARE(e.document.team().nodes[i].id, source.team().nodes[i].id);
            QVERIFY(e.document.team().nodes[i].pos == source.team().nodes[i].pos);
        }
        QCOMPARE(e.scene.selectedNodes().size(), source.team().nodes.size());
        QCOMPARE(e.document.undoStack()->count(), 1);
        QCOMPARE(e.document.undoStack()->undoText(), "Insert template " + QString::fromStdString(source.team().name));
    }

    void anUnreadableTemplateIsAMessage()
    {
        Edits e;
        StatusSpy status(&e.feedback);
        e.edits->insertTemplate("/nonexistent-conclave/nope.team.json");
        QCOMPARE(status.messages(), QStringList{StatusSpy::format("Cannot read template nope.team.json", 0)});
        QCOMPARE(e.document.undoStack()->count(), 0);
    }

    void copyAndPaste()
    {
        Edits e;
        StatusSpy status(&e.feedback);
        e.edits->copySelection(); // nothing selected: nothing copied, nothing said
        QCOMPARE(status.size(), 0);
        e.scene.selectNodes({NodeId("in")});
        e.action("actionCopy")->trigger();
        QCOMPARE(status.messages(), QStringList{StatusSpy::format("Copied 1 node as team JSON", 4000)});
        e.action("actionPaste")->trigger();
        QCOMPARE(e.ids(), (std::vector<std::string>{"in", "route", "math", "general", "vote", "out", "in_2"}));
        QCOMPARE(e.scene.selectedNodes(), std::vector<NodeId>{NodeId("in_2")});
        QVERIFY(e.document.team().nodes.back().pos == (Position{40, 160}));
        QCOMPARE(sceneInconsistency(e.document, e.scene), QString());
    }

    void pastingWhatIsNotATeamChangesNothing()
    {
        Edits e;
        QApplication::clipboard()->setText(QString());
        StatusSpy status(&e.feedback);
        e.edits->paste();
        QCOMPARE(status.messages(),
                 QStringList{StatusSpy::format("Nothing to paste: the clipboard holds no team JSON "
                                               "(clipboard:1:1: the file is empty; expected a JSON object)",
                                               6000)});
        QCOMPARE(e.document.undoStack()->count(), 0);
    }

    void cutDuplicateDeleteAndSelectAll()
    {
        Edits e;
        e.scene.selectNodes({NodeId("math")});
        e.action("actionDuplicate")->trigger();
        QCOMPARE(e.ids().back(), std::string("math_2"));
        QVERIFY(e.document.team().nodes.back().pos == (Position{480, 80}));
        QCOMPARE(e.scene.selectedNodes(), std::vector<NodeId>{NodeId("math_2")});
        e.action("actionCut")->trigger();
        QCOMPARE(e.ids(), (std::vector<std::string>{"in", "route", "math", "general", "vote", "out"}));
        QVERIFY(QApplication::clipboard()->text().contains("\"math_2\""));

        e.action("actionSelectAll")->trigger();
        QCOMPARE(e.scene.selectedNodes().size(), size_t(6));
        QCOMPARE(e.scene.selectedEdges().size(), size_t(6));
        e.action("actionDelete")->trigger();
        QVERIFY(e.document.team().nodes.empty());
        QVERIFY(e.document.team().edges.empty());
        e.action("actionUndo")->trigger();
        QCOMPARE(e.document.team().nodes.size(), size_t(6));
        QCOMPARE(e.document.team().edges.size(), size_t(6));
        e.action("actionRedo")->trigger();
        QVERIFY(e.document.team().nodes.empty());
        QCOMPARE(sceneInconsistency(e.document, e.scene), QString());
    }

    void onlyARoutersEdgeHasARouteLabel()
    {
        Edits e;
        StatusSpy status(&e.feedback);
        e.edits->editRouteLabel(0); // in -> route
        QCOMPARE(status.messages(), QStringList{StatusSpy::format("Only a router's edges carry a route label", 4000)});
        e.edits->editRouteLabel(99); // no such edge: nothing said
        QCOMPARE(status.size(), 1);
        rejectTheNextDialog();
        e.edits->editRouteLabel(1); // route -> math: asked, and cancelled
        QCOMPARE(e.document.team().edges[1].when, std::optional<std::string>("math"));
        QCOMPARE(e.document.undoStack()->count(), 0);
    }

    void cancelledTeamSettingsChangeNothing()
    {
        Edits e;
        QCOMPARE(e.action("actionTeamSettings")->shortcut(), QKeySequence("Ctrl+,"));
        rejectTheNextDialog();
        e.action("actionTeamSettings")->trigger();
        QCOMPARE(e.document.undoStack()->count(), 0);
    }

    // The canvas edits act only while the canvas has focus: Delete and Ctrl+C
    // stay the inspector's text fields' own.
    void canvasEditsActOnTheCanvas_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("text");
        QTest::addColumn<QList<QKeySequence>>("shortcuts");
        QTest::newRow("cut") << "actionCut"
                             << "Cu&t" << QList<QKeySequence>{QKeySequence(QKeySequence::Cut)};
        QTest::newRow("copy") << "actionCopy"
                              << "&Copy" << QList<QKeySequence>{QKeySequence(QKeySequence::Copy)};
        QTest::newRow("paste") << "actionPaste"
                               << "&Paste" << QList<QKeySequence>{QKeySequence(QKeySequence::Paste)};
        QTest::newRow("duplicate") << "actionDuplicate"
                                   << "D&uplicate" << QList<QKeySequence>{QKeySequence("Ctrl+D")};
        QTest::newRow("delete") << "actionDelete"
                                << "&Delete"
                                << QList<QKeySequence>{QKeySequence(QKeySequence::Delete),
                                                       QKeySequence(Qt::Key_Backspace)};
        QTest::newRow("select all") << "actionSelectAll"
                                    << "Select &All" << QList<QKeySequence>{QKeySequence(QKeySequence::SelectAll)};
    }

    void canvasEditsActOnTheCanvas()
    {
        QFETCH(QString, name);
        QFETCH(QString, text);
        QFETCH(QList<QKeySequence>, shortcuts);
        Edits e;
        auto* a = e.action(name);
        QVERIFY(a);
        QCOMPARE(a->text(), text);
        QCOMPARE(a->shortcuts(), shortcuts);
        QCOMPARE(a->shortcutContext(), Qt::WidgetWithChildrenShortcut);
        QVERIFY(e.view.actions().contains(a));
    }

    void undoAndRedoFollowTheStack()
    {
        Edits e;
        QVERIFY(!e.action("actionUndo")->isEnabled());
        QCOMPARE(e.action("actionUndo")->shortcut(), QKeySequence(QKeySequence::Undo));
        QCOMPARE(e.action("actionRedo")->shortcuts(),
                 (QList<QKeySequence>{QKeySequence(QKeySequence::Redo), QKeySequence("Ctrl+Y")}));
        e.edits->deleteSelection(); // nothing selected: no step
        QCOMPARE(e.document.undoStack()->count(), 0);
        e.scene.selectNodes({NodeId("out")});
        e.edits->deleteSelection();
        QVERIFY(e.action("actionUndo")->isEnabled());
        QVERIFY(!e.action("actionRedo")->isEnabled());
    }
};

QTEST_MAIN(TestEditActions)
#include "tst_editactions.moc"
