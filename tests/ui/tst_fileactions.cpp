// The File menu's controller: opening (good and rejected files), saving (and
// failing to), a new team, the recent files, its actions and their shortcuts,
// and the status messages each of them shows.
#include <QtTest>

#include "StatusSpy.h"

#include "document/TeamDocument.h"
#include "editor/CanvasView.h"
#include "editor/TeamScene.h"
#include "studio/FileActions.h"
#include "studio/RecentFiles.h"

#include <QAbstractButton>
#include <QMessageBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QUndoStack>

using namespace conclave;
using conclave::ui::FileActions;

namespace {

const QString kTeam = QStringLiteral(CONCLAVE_RESOURCES "/examples/keyword-vote.team.json");

// A document on a canvas, and the controller over them in a window of its own.
struct Files {
    QWidget window;
    ui::TeamDocument document;
    ui::TeamScene scene{&document};
    ui::CanvasView view{&scene};
    ui::StudioFeedback feedback;
    FileActions* files = new FileActions(&document, &view, &feedback, &window);

    QAction* action(const char* name) const { return window.findChild<QAction*>(name); }
};

} // namespace

class TestFileActions : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void init() { QSettings().remove("recentFiles"); }

    void opensATeamAndSaysSo()
    {
        Files f;
        StatusSpy status(&f.feedback);
        QVERIFY(f.files->openFile(kTeam, false));
        QCOMPARE(f.document.team().nodes.size(), size_t(6));
        QCOMPARE(f.document.filePath(), kTeam);
        QCOMPARE(status.messages(), QStringList{StatusSpy::format("Opened " + QDir::toNativeSeparators(kTeam), 5000)});
        QCOMPARE(f.feedback.lastError(), QString());
        QVERIFY(!f.feedback.isInteractive());
        QCOMPARE(f.files->recentFiles()->files(), QStringList{kTeam});
    }

    // A file the loader rejects leaves the document as it was; the error is
    // kept whole, the status bar shows its first line until replaced.
    void aRejectedFileKeepsTheDocument()
    {
        Files f;
        QVERIFY(f.files->openFile(kTeam, false));
        const Team before = f.document.team();
        StatusSpy status(&f.feedback);
        QVERIFY(!f.files->openFile(CONCLAVE_TEST_DATA "/invalid/empty.json", false));
        QCOMPARE(f.feedback.lastError(), QString("empty.json:1:1: the file is empty; expected a JSON object"));
        QCOMPARE(status.messages(),
                 QStringList{StatusSpy::format(
                     "Cannot open empty.json: empty.json:1:1: the file is empty; expected a JSON object", 0)});
        QVERIFY(f.document.team() == before);
        QCOMPARE(f.document.filePath(), kTeam);
        QCOMPARE(f.files->recentFiles()->files(), QStringList{kTeam});
        // The next good file clears the error.
        QVERIFY(f.files->openFile(kTeam, false));
        QCOMPARE(f.feedback.lastError(), QString());
    }

    void savesAndTheDocumentIsClean()
    {
        Files f;
        QVERIFY(f.files->openFile(kTeam, false));
        QVERIFY(f.document.requestAddNode(NodeKind::Expert, Position{0, 0}));
        QVERIFY(f.document.isModified());
        QTemporaryDir dir;
        const QString path = dir.filePath("copy.team.json");
        StatusSpy status(&f.feedback);
        QVERIFY(f.files->saveTo(path));
        QCOMPARE(status.messages(), QStringList{StatusSpy::format("Saved " + QDir::toNativeSeparators(path), 5000)});
        QVERIFY(!f.document.isModified());
        QCOMPARE(f.document.filePath(), path);
        QCOMPARE(f.files->recentFiles()->files(), (QStringList{path, kTeam}));
        QVERIFY(f.files->save()); // to its own path now, with no dialog
        QCOMPARE(status.last(), StatusSpy::format("Saved " + QDir::toNativeSeparators(path), 5000));
    }

    void aFailedSaveIsReported()
    {
        Files f;
        QVERIFY(f.files->openFile(kTeam, false));
        StatusSpy status(&f.feedback);
        QVERIFY(!f.files->saveTo("/nonexistent-conclave/x.team.json"));
        const QString error = "cannot create a temporary file in /nonexistent-conclave: No such file or directory";
        QCOMPARE(f.feedback.lastError(), error);
        QCOMPARE(status.messages(), QStringList{StatusSpy::format("Cannot save: " + error, 0)});
        QCOMPARE(f.document.filePath(), kTeam);
    }

    void aNewTeamReplacesTheDocument()
    {
        Files f;
        QVERIFY(f.files->openFile(kTeam, false));
        QVERIFY(f.document.requestAddNode(NodeKind::Expert, Position{0, 0}));
        f.view.setZoom(2.0);
        StatusSpy status(&f.feedback);
        f.action("actionNew")->trigger(); // not interactive: the unsaved edit is not asked about
        QVERIFY(f.document.team().nodes.empty());
        QCOMPARE(f.document.filePath(), QString());
        QVERIFY(!f.document.isModified());
        QCOMPARE(f.view.zoom(), 1.0);
        QCOMPARE(status.messages(), QStringList{StatusSpy::format("New team", 4000)});
    }

    void unsavedChangesAreAskedAboutOnlyWhenInteractive()
    {
        Files f;
        QVERIFY(f.files->openFile(kTeam, false));
        QVERIFY(f.files->maybeSave()); // unmodified
        QVERIFY(f.document.requestAddNode(NodeKind::Expert, Position{0, 0}));
        QVERIFY(f.files->maybeSave()); // not interactive
        f.feedback.setInteractive(true);
        QTimer::singleShot(0, [] {
            if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget()))
                box->button(QMessageBox::Cancel)->click();
        });
        QVERIFY(!f.files->maybeSave());
        QVERIFY(f.document.isModified());
    }

    // An entry of Open Recent whose file is gone is dropped from the list.
    void aRecentFileThatIsGoneIsForgotten()
    {
        Files f;
        QTemporaryDir dir;
        const QString gone = dir.filePath("gone.team.json");
        f.files->recentFiles()->add(kTeam);
        f.files->recentFiles()->add(gone);
        QTimer::singleShot(0, [] {
            if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget()))
                box->accept(); // "Cannot open team"
        });
        emit f.files->recentFiles()->openRequested(gone);
        QCOMPARE(f.files->recentFiles()->files(), QStringList{kTeam});
        QCOMPARE(f.feedback.lastError(), QString("gone.team.json: no such file"));
    }

    void quitClosesTheWindow()
    {
        Files f;
        f.window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&f.window));
        f.action("actionQuit")->trigger();
        QVERIFY(!f.window.isVisible());
    }

    void actionsAndTheirShortcuts_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("text");
        QTest::addColumn<QKeySequence>("shortcut");
        QTest::newRow("new") << "actionNew"
                             << "&New" << QKeySequence(QKeySequence::New);
        QTest::newRow("open") << "actionOpen"
                              << "&Open…" << QKeySequence(QKeySequence::Open);
        QTest::newRow("save") << "actionSave"
                              << "&Save" << QKeySequence(QKeySequence::Save);
        QTest::newRow("save as") << "actionSaveAs"
                                 << "Save &As…" << QKeySequence(QKeySequence::SaveAs);
        QTest::newRow("export") << "actionExport"
                                << "&Export JSON…" << QKeySequence("Ctrl+E");
        QTest::newRow("quit") << "actionQuit"
                              << "&Quit" << QKeySequence(QKeySequence::Quit);
    }

    void actionsAndTheirShortcuts()
    {
        QFETCH(QString, name);
        QFETCH(QString, text);
        QFETCH(QKeySequence, shortcut);
        Files f;
        auto* a = f.action(qPrintable(name));
        QVERIFY(a);
        QCOMPARE(a->parent(), static_cast<QObject*>(f.files));
        QCOMPARE(a->text(), text);
        QCOMPARE(a->shortcut(), shortcut);
        // The tool tip names the shortcut, where the platform has one.
        const QString plain = QString(text).remove('&');
        QCOMPARE(a->toolTip(), shortcut.isEmpty()
                                   ? plain
                                   : QString("%1 (%2)").arg(plain, shortcut.toString(QKeySequence::NativeText)));
    }
};

QTEST_MAIN(TestFileActions)
#include "tst_fileactions.moc"
