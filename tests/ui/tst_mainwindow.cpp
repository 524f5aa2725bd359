// The studio window: opening teams (good, bad and every invalid test file),
// the dirty title, themes, and screenshots of every example that show its
// nodes on the canvas.
#include <QtTest>

#include "EditorChecks.h"

#include "editor/CanvasView.h"
#include "editor/KindStyle.h"
#include "editor/NodeItem.h"
#include "editor/TeamScene.h"
#include "panels/ProblemsPanel.h"
#include "run/RunToolBar.h"
#include "studio/MainWindow.h"
#include "studio/ThemeManager.h"

#include "conclave/diagnostics/Problem.h"

#include <QDir>
#include <QFile>
#include <QMenu>
#include <QMenuBar>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QToolBar>
#include <QUndoStack>
#include <QVector3D>

using conclave::ui::MainWindow;

namespace {

QStringList readLines(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {QStringLiteral("<cannot read %1>").arg(path)};
    QStringList lines = QString::fromUtf8(file.readAll()).split('\n');
    if (!lines.isEmpty() && lines.last().isEmpty())
        lines.removeLast();
    return lines;
}

// How many pixels of `image` inside `rect` differ from `bare` (the same
// window without the nodes) and are `base` tinted towards `colour`, at least
// 5 % of the way: a node card's body (the base with a tint of its kind), its
// border and its icon disc, but not the text on it, nor the canvas, whatever
// its colour.
int pixelsTinted(const QImage& image, const QImage& bare, const QRect& rect, const QColor& base,
                 const QColor& colour)
{
    const QVector3D from(base.red(), base.green(), base.blue());
    const QVector3D towards = QVector3D(colour.red(), colour.green(), colour.blue()) - from;
    int count = 0;
    const QRect inside = rect & image.rect();
    for (int y = inside.top(); y <= inside.bottom(); ++y) {
        for (int x = inside.left(); x <= inside.right(); ++x) {
            if (image.pixel(x, y) == bare.pixel(x, y))
                continue;
            const QColor c = image.pixelColor(x, y);
            const QVector3D p = QVector3D(c.red(), c.green(), c.blue()) - from;
            const float t = QVector3D::dotProduct(p, towards) / towards.lengthSquared();
            count += t >= 0.05f && t <= 1.05f && (p - t * towards).length() <= 6;
        }
    }
    return count;
}

// How many pixels of `image` inside `rect` are within a small distance of `colour`.
int pixelsNear(const QImage& image, const QRect& rect, const QColor& colour)
{
    int count = 0;
    const QRect inside = rect & image.rect();
    for (int y = inside.top(); y <= inside.bottom(); ++y) {
        for (int x = inside.left(); x <= inside.right(); ++x) {
            const QColor c = image.pixelColor(x, y);
            count += std::abs(c.red() - colour.red()) + std::abs(c.green() - colour.green()) +
                             std::abs(c.blue() - colour.blue()) <
                     24;
        }
    }
    return count;
}

// A menu's or a toolbar's entries: an action's object name, "-" for a
// separator, "[Title]" for a submenu (and, for the Panels menu, the docks' titles).
QStringList entries(const QWidget* widget)
{
    QStringList out;
    for (const QAction* a : widget->actions()) {
        if (a->isSeparator())
            out << "-";
        else if (a->menu())
            out << "[" + a->menu()->title() + "]";
        else if (!a->objectName().isEmpty())
            out << a->objectName();
        else if (!a->text().isEmpty())
            out << a->text();
    }
    return out;
}

} // namespace

class TestMainWindow : public QObject {
    Q_OBJECT

    // This run's own settings: no window layout, recent file or theme
    // remembered by another run, in this tree or another (test mode alone
    // shares ~/.qttest between them all).
    QTemporaryDir m_settings;

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_settings.isValid());
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, m_settings.path());
    }
    // And each test starts from none.
    void init() { QSettings().clear(); }

    void opensAnExampleOntoTheCanvas()
    {
        MainWindow window;
        QVERIFY(window.openFile(CONCLAVE_RESOURCES "/examples/keyword-vote.team.json", false));
        QCOMPARE(window.scene()->nodeItemCount(), size_t(6));
        QCOMPARE(sceneInconsistency(*window.document(), *window.scene()), QString());
        auto* problems = window.problemsPanel();
        QCOMPARE(problems->topLevelItemCount(), 1);
        QCOMPARE(problems->topLevelItem(0)->text(0), QString("No problems"));
        QVERIFY(window.windowTitle().endsWith(" - Conclave Studio"));
        QVERIFY(window.windowTitle().contains("keyword-vote.team.json"));
        QVERIFY(!window.isWindowModified());
    }

    void anEditMarksTheTitleAndUndoClearsIt()
    {
        MainWindow window;
        QVERIFY(window.openFile(CONCLAVE_RESOURCES "/examples/cascade.team.json", false));
        const QPointF at(0, 0);
        window.addNode(conclave::NodeKind::Expert, &at);
        QVERIFY(window.isWindowModified());
        window.document()->undoStack()->undo();
        QVERIFY(!window.isWindowModified());
    }

    void problemsFollowEditsAndSelectTheirNode()
    {
        MainWindow window;
        QVERIFY(window.openFile(CONCLAVE_RESOURCES "/examples/keyword-vote.team.json", false));
        window.document()->requestRemove({}, {window.document()->team().edges.size() - 1}); // vote -> out
        auto* panel = window.problemsPanel();
        QVERIFY(panel->errorCount() > 0);
        QTreeWidgetItem* outProblem = nullptr;
        for (int i = 0; i < panel->topLevelItemCount(); ++i) {
            if (!outProblem && panel->topLevelItem(i)->text(1) == "out")
                outProblem = panel->topLevelItem(i);
        }
        QVERIFY(outProblem);
        QCOMPARE(outProblem->text(0), QString("an output node needs exactly one incoming edge, has 0"));
        emit panel->itemClicked(outProblem, 0);
        QCOMPARE(window.scene()->selectedNodes().size(), size_t(1));
        QCOMPARE(window.scene()->selectedNodes().front().str(), std::string("out"));
    }

    void invalidFiles_data()
    {
        QTest::addColumn<QString>("file");
        const QDir dir(CONCLAVE_TEST_DATA "/invalid");
        for (const QString& name : dir.entryList({"*.json"}, QDir::Files, QDir::Name))
            QTest::newRow(qPrintable(name)) << dir.filePath(name);
    }

    // A file the loader rejects leaves the open document exactly as it was and
    // reports the loader's messages; a file that loads but does not validate
    // opens (so it can be fixed) with exactly the expected problems listed.
    void invalidFiles()
    {
        QFETCH(QString, file);
        QString base = file;
        base.chop(base.endsWith(".team.json") ? 10 : 5);
        const QStringList expected = readLines(base + ".expected");

        MainWindow window;
        QVERIFY(window.openFile(CONCLAVE_RESOURCES "/examples/triage.team.json", false));
        const QPointF at(0, 0);
        window.addNode(conclave::NodeKind::Expert, &at); // an unsaved edit that must survive
        const auto team = window.document()->team();
        const auto path = window.document()->filePath();
        const int undoCount = window.document()->undoStack()->count();
        const QString title = window.windowTitle();

        if (!window.openFile(file, false)) {
            QCOMPARE(window.lastError().split('\n'), expected);
            QVERIFY(window.document()->team() == team);
            QCOMPARE(window.document()->filePath(), path);
            QCOMPARE(window.document()->undoStack()->count(), undoCount);
            QVERIFY(window.document()->isModified());
            QCOMPARE(window.windowTitle(), title);
            QCOMPARE(sceneInconsistency(*window.document(), *window.scene()), QString());
            return;
        }
        QStringList shown;
        const std::string name = QFileInfo(file).fileName().toStdString();
        for (const auto& p : window.document()->problems())
            shown << QString::fromStdString(conclave::formatProblem(p, name));
        QCOMPARE(shown, expected);
        QCOMPARE(window.problemsPanel()->errorCount() + window.problemsPanel()->warningCount(), int(expected.size()));
        QCOMPARE(sceneInconsistency(*window.document(), *window.scene()), QString());
    }

    void screenshots_data()
    {
        QTest::addColumn<QString>("file");
        const QDir dir(CONCLAVE_RESOURCES "/examples");
        for (const QString& name : dir.entryList({"*.team.json"}, QDir::Files, QDir::Name))
            QTest::newRow(qPrintable(name)) << dir.filePath(name);
    }

    // Every node is on the canvas, fitted into view, and the window's
    // screenshot shows it there: its card, mostly its kind's tint of the base
    // colour where the window without nodes shows something else (at any
    // zoom: the body, the border, the icon disc when it is drawn), and its
    // title in the text colour. Only the cards count: the palette's icons show
    // every kind's colour too.
    void screenshots()
    {
        QFETCH(QString, file);
        MainWindow window;
        window.resize(1400, 860);
        QVERIFY(window.openFile(file, false));
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.fitToTeam();
        const QImage image = window.grab().toImage().convertToFormat(QImage::Format_RGB32);
        QCOMPARE(image.size(), window.size());
        for (auto* item : window.scene()->items()) {
            if (item->type() == conclave::ui::NodeItem::Type)
                item->setVisible(false);
        }
        const QImage bare = window.grab().toImage().convertToFormat(QImage::Format_RGB32);
        const auto* view = window.canvas();
        const QRect canvas(view->viewport()->mapTo(&window, QPoint(0, 0)), view->viewport()->size());
        const QColor base = window.scene()->palette().color(QPalette::Base);
        const QColor text = window.scene()->palette().color(QPalette::Text);
        const auto& nodes = window.document()->team().nodes;
        QCOMPARE(window.scene()->nodeItemCount(), nodes.size());
        for (const auto& n : nodes) {
            const auto* item = window.scene()->nodeItem(n.id);
            QVERIFY(item);
            const QRectF card = item->mapRectToScene(
                QRectF(0, 0, conclave::ui::NodeItem::kWidth, conclave::ui::NodeItem::kHeight));
            const QRect shown = view->mapFromScene(card).boundingRect().translated(canvas.topLeft());
            const QString id = QString::fromStdString(n.id.str());
            QVERIFY2(canvas.contains(shown), qPrintable(id));
            const int tinted = pixelsTinted(image, bare, shown, base, conclave::ui::KindStyle::colour(n.kind));
            QVERIFY2(tinted * 2 >= shown.width() * shown.height(), qPrintable(id + ": " + QString::number(tinted)));
            QVERIFY2(pixelsNear(image, shown, text) >= 10, qPrintable(id));
        }
    }

    void themesSwitchAndPersist()
    {
        MainWindow window;
        window.themes()->setTheme(conclave::ui::ThemeManager::Theme::Dark);
        QVERIFY(window.themes()->isDark());
        QVERIFY(window.action("actionTheme_dark")->isChecked());
        window.themes()->setTheme(conclave::ui::ThemeManager::Theme::Light);
        QVERIFY(!window.themes()->isDark());
        window.close();
        QCOMPARE(QSettings().value("theme").toString(), QString("light"));
    }

    // The shell lays out what its controllers own: every menu and toolbar
    // lists their actions in the same order as before they were split off.
    void menusAndToolbarsListTheControllersActions()
    {
        MainWindow window;
        QStringList menus;
        QMap<QString, QStringList> menu;
        for (QAction* a : window.menuBar()->actions()) {
            menus << a->menu()->title();
            menu[a->menu()->title()] = entries(a->menu());
            for (QAction* sub : a->menu()->actions()) {
                if (sub->menu())
                    menu[sub->menu()->title()] = entries(sub->menu());
            }
        }
        QCOMPARE(menus, (QStringList{"&File", "&Edit", "&Insert", "&Run", "&View"}));
        QCOMPARE(menu["&File"],
                 (QStringList{"actionNew", "actionOpen", "[Open &Recent]", "-", "actionSave", "actionSaveAs",
                              "actionExport", "-", "actionTeamSettings", "-", "actionQuit"}));
        QCOMPARE(menu["&Edit"], (QStringList{"actionUndo", "actionRedo", "-", "actionCut", "actionCopy", "actionPaste",
                                             "actionDuplicate", "actionDelete", "-", "actionSelectAll"}));
        QCOMPARE(menu["&Insert"], (QStringList{"actionAddInput", "actionAddRouter", "actionAddExpert",
                                               "actionAddCoordinator", "actionAddAggregator", "actionAddOutput"}));
        QCOMPARE(menu["&Run"],
                 (QStringList{"actionRun", "actionStop", "actionReplay", "actionWhatIf", "-", "actionEvaluate",
                              "actionTrainRouter", "actionSearchDesigns", "-", "actionServe", "-",
                              "actionExportChart"}));
        QCOMPARE(menu["&View"],
                 (QStringList{"actionZoomIn", "actionZoomOut", "actionFit", "actionActualSize", "-", "actionSnapToGrid",
                              "actionAutoLayout", "-", "[&Theme]", "-", "[&Panels]"}));
        QCOMPARE(menu["&Theme"], (QStringList{"actionTheme_system", "actionTheme_light", "actionTheme_dark"}));
        QCOMPARE(menu["&Panels"], (QStringList{"Palette", "Inspector", "Problems", "Run output", "Run history"}));

        const auto* tools = window.findChild<QToolBar*>("mainToolBar");
        QVERIFY(tools);
        QCOMPARE(entries(tools), (QStringList{"actionNew", "actionOpen", "actionSave", "-", "actionUndo", "actionRedo",
                                              "-", "actionAutoLayout", "actionFit"}));
        const QStringList run = entries(window.runToolBar());
        QCOMPARE(run.mid(0, 2), (QStringList{"actionRun", "actionStop"}));
        QCOMPARE(window.toolBarArea(window.runToolBar()), Qt::TopToolBarArea);
    }

    // Both toolbars on one row at 1280 px: nothing falls into an overflow menu.
    void toolbarsFitAt1280()
    {
        MainWindow window;
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QCOMPARE(window.width(), 1280);
        // Being exposed is not being laid out: wait until both bars have their
        // places, side by side on the top row.
        const auto* main = window.findChild<QToolBar*>("mainToolBar");
        QVERIFY(main);
        const auto* run = window.runToolBar();
        QTRY_VERIFY(!main->geometry().isEmpty() && !run->geometry().isEmpty() &&
                    main->geometry().top() == run->geometry().top() &&
                    run->geometry().left() > main->geometry().right());
        for (auto* bar : window.findChildren<QToolBar*>()) {
            const auto* more = bar->findChild<QWidget*>("qt_toolbar_ext_button");
            QVERIFY2(!more || !more->isVisible(), qPrintable(bar->objectName()));
            QVERIFY2(bar->geometry().right() < window.width(), qPrintable(bar->objectName()));
        }
        QCOMPARE(window.toolBarBreak(window.runToolBar()), false);
    }

    // The canvas's share of the split is remembered, and never below a third.
    void canvasShareRemembered()
    {
        QSettings().setValue("window/canvasShare", 0.6);
        {
            MainWindow window;
            QCOMPARE(window.canvasShare(), 0.6);
        }
        QSettings().setValue("window/canvasShare", 0.1);
        MainWindow window;
        QCOMPARE(window.canvasShare(), 1.0 / 3.0);
        window.close();
        QCOMPARE(QSettings().value("window/canvasShare").toDouble(), 1.0 / 3.0);
        QSettings().remove("window/canvasShare");
    }

    void recentFilesRemembered()
    {
        MainWindow window;
        QVERIFY(window.openFile(CONCLAVE_RESOURCES "/examples/debate.team.json", false));
        QVERIFY(QSettings().value("recentFiles").toStringList().first().endsWith("debate.team.json"));
    }
};

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
