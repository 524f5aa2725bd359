// The View menu's controller: zoom, fit, snap, auto layout, the theme actions
// (one checked, the theme's), and bringing a node or an edge into sight.
#include <QtTest>

#include "document/TeamDocument.h"
#include "editor/CanvasView.h"
#include "editor/EdgeItem.h"
#include "editor/TeamScene.h"
#include "studio/ThemeManager.h"
#include "studio/ViewActions.h"

#include <QStandardPaths>
#include <QUndoStack>

using namespace conclave;
using conclave::ui::ThemeManager;
using conclave::ui::ViewActions;

namespace {

const QString kTeam = QStringLiteral(CONCLAVE_RESOURCES "/examples/keyword-vote.team.json");

// The example team on a canvas, and the controller over them.
struct Views {
    Views() { QVERIFY(document.load(kTeam).isEmpty()); }
    ui::TeamDocument document;
    ui::TeamScene scene{&document};
    ui::CanvasView view{&scene};
    ThemeManager themes;
    ViewActions views{&document, &scene, &view, &themes, nullptr};

    QAction* action(const QString& name) const { return views.findChild<QAction*>(name); }
    QStringList checkedThemes() const
    {
        QStringList out;
        for (auto* a : views.themeActions()) {
            if (a->isChecked())
                out << a->objectName();
        }
        return out;
    }
};

} // namespace

class TestViewActions : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void zoomSteps()
    {
        Views v;
        v.view.setZoom(2.0);
        QSignalSpy zoomed(&v.view, &ui::CanvasView::zoomChanged);
        v.action("actionActualSize")->trigger();
        QCOMPARE(v.view.zoom(), 1.0);
        v.action("actionZoomIn")->trigger();
        QCOMPARE(v.view.zoom(), 1.25);
        v.action("actionZoomOut")->trigger();
        QCOMPARE(v.view.zoom(), 1.0);
        QCOMPARE(zoomed.size(), 3);
        QCOMPARE(zoomed.at(0).at(0).toDouble(), 1.0);
        QCOMPARE(zoomed.at(1).at(0).toDouble(), 1.25);
        QCOMPARE(zoomed.at(2).at(0).toDouble(), 1.0);
        QCOMPARE(v.action("actionZoomIn")->shortcuts(),
                 (QList<QKeySequence>{QKeySequence(QKeySequence::ZoomIn), QKeySequence("Ctrl+=")}));
        QCOMPARE(v.action("actionZoomOut")->shortcut(), QKeySequence(QKeySequence::ZoomOut));
        QCOMPARE(v.action("actionFit")->shortcut(), QKeySequence("Ctrl+0"));
        QCOMPARE(v.action("actionActualSize")->shortcut(), QKeySequence("Ctrl+1"));
    }

    void snapToGridIsChecked()
    {
        Views v;
        auto* snap = v.action("actionSnapToGrid");
        QVERIFY(snap->isCheckable());
        QVERIFY(snap->isChecked());
        QCOMPARE(snap->shortcut(), QKeySequence("Ctrl+G"));
        snap->trigger();
        QVERIFY(!v.scene.snapToGrid());
        snap->trigger();
        QVERIFY(v.scene.snapToGrid());
    }

    void autoLayoutIsOneUndoStep()
    {
        Views v;
        auto* layout = v.action("actionAutoLayout");
        QCOMPARE(layout->shortcut(), QKeySequence("Ctrl+L"));
        layout->trigger();
        QCOMPARE(v.document.undoStack()->count(), 1);
        v.document.undoStack()->undo();
        QVERIFY(!v.document.isModified());
    }

    void themeActionsFollowTheTheme()
    {
        Views v;
        QCOMPARE(v.views.themeActions().size(), 3);
        QCOMPARE(v.views.themeActions().at(0)->text(), QString("Follow &System"));
        QCOMPARE(v.views.themeActions().at(1)->text(), QString("&Light"));
        QCOMPARE(v.views.themeActions().at(2)->text(), QString("&Dark"));
        QCOMPARE(v.checkedThemes(), QStringList{"actionTheme_system"});
        v.themes.setTheme(ThemeManager::Theme::Dark);
        QCOMPARE(v.checkedThemes(), QStringList{"actionTheme_dark"});
        v.action("actionTheme_light")->trigger();
        QVERIFY(v.themes.theme() == ThemeManager::Theme::Light);
        QCOMPARE(v.checkedThemes(), QStringList{"actionTheme_light"});
        v.action("actionTheme_system")->trigger();
        QVERIFY(v.themes.theme() == ThemeManager::Theme::System);
    }

    void focusingANodeSelectsIt()
    {
        Views v;
        v.views.focusNode(NodeId("vote"));
        QCOMPARE(v.scene.selectedNodes(), std::vector<NodeId>{NodeId("vote")});
        v.views.focusNode(NodeId("nobody")); // no such node: the selection stays
        QCOMPARE(v.scene.selectedNodes(), std::vector<NodeId>{NodeId("vote")});
    }

    void focusingAnEdgeSelectsOnlyIt()
    {
        Views v;
        v.scene.selectNodes({NodeId("in")});
        v.views.focusEdge(5); // vote -> out
        QVERIFY(v.scene.selectedNodes().empty());
        QCOMPARE(v.scene.selectedEdges(), std::vector<size_t>{5});
        v.views.focusEdge(6); // no such edge: nothing selected
        QVERIFY(v.scene.selectedEdges().empty());
    }
};

QTEST_MAIN(TestViewActions)
#include "tst_viewactions.moc"
