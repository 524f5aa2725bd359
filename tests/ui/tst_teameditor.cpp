// The editor end to end: a team built through the editor's actions is saved
// exactly as expected, reopens as the same scene, and every step undoes and
// redoes with the scene consistent with the document throughout.
#include <QtTest>

#include "EditorScenario.h"

#include "conclave/io/TeamFile.h"

#include <QClipboard>
#include <QFile>
#include <QStandardPaths>
#include <QTemporaryDir>

using conclave::ui::MainWindow;

namespace {

QByteArray readAll(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

} // namespace

class TestTeamEditor : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void buildSaveAndReopen()
    {
        MainWindow window;
        window.show();
        EditorScenario scenario(window);
        const QString failure = scenario.run();
        QVERIFY2(failure.isEmpty(), qPrintable(failure));
        QVERIFY(window.document()->isModified());
        QVERIFY(window.windowTitle().contains("[*]"));
        QVERIFY(window.isWindowModified());

        QTemporaryDir dir;
        const QString path = dir.filePath("built.team.json");
        QVERIFY(window.saveTo(path));
        QVERIFY(!window.document()->isModified());
        QVERIFY(!window.isWindowModified());
        const QByteArray saved = readAll(path);
        const QByteArray expected = readAll(CONCLAVE_TEST_DATA "/editor/built.team.json");
        if (saved != expected)
            qWarning().noquote() << "saved:\n" << saved;
        QCOMPARE(saved, expected);

        MainWindow reopened;
        QVERIFY(reopened.openFile(path, false));
        QVERIFY(reopened.document()->team() == window.document()->team());
        QCOMPARE(sceneInconsistency(*reopened.document(), *reopened.scene()), QString());
        for (const auto& n : window.document()->team().nodes)
            QCOMPARE(reopened.scene()->nodeItem(n.id)->pos(), window.scene()->nodeItem(n.id)->pos());
        for (size_t i = 0; i < window.scene()->edgeItems().size(); ++i)
            QCOMPARE(reopened.scene()->edgeItems()[i]->path(), window.scene()->edgeItems()[i]->path());
    }

    void undoEverythingThenRedoEverything()
    {
        MainWindow window;
        window.show();
        EditorScenario scenario(window);
        QCOMPARE(scenario.run(), QString());
        auto* stack = window.document()->undoStack();
        const auto& snapshots = scenario.snapshots();
        const int steps = stack->index();
        QVERIFY(steps >= 20);
        for (int i = steps; i > 0; --i) {
            stack->undo();
            QCOMPARE(stack->index(), i - 1);
            QCOMPARE(sceneInconsistency(*window.document(), *window.scene()), QString());
            QCOMPARE(conclave::teamToJsonText(window.document()->team()), snapshots.at(i - 1));
        }
        QVERIFY(window.document()->team().nodes.empty());
        QVERIFY(!window.document()->isModified());
        for (int i = 1; i <= steps; ++i) {
            stack->redo();
            QCOMPARE(sceneInconsistency(*window.document(), *window.scene()), QString());
            QCOMPARE(conclave::teamToJsonText(window.document()->team()), snapshots.at(i));
        }
    }

    void renamingANodeRenamesItsPromptReferences()
    {
        MainWindow window;
        QVERIFY(window.openFile(CONCLAVE_RESOURCES "/examples/mixture-of-agents.team.json", false));
        auto* document = window.document();
        const auto promptOf = [&](const char* id) {
            const auto* n = document->node(conclave::NodeId(id));
            return n && n->config.call.prompt ? QString::fromStdString(*n->config.call.prompt) : QString();
        };
        const QString before = promptOf("l2_reasoner");
        QVERIFY(before.contains("{{from.l1_reasoner}}"));
        const auto problemsBefore = document->problems().size();
        auto* stack = document->undoStack();
        const int index = stack->index();

        QVERIFY(document->requestRename(conclave::NodeId("l1_reasoner"), conclave::NodeId("draft_reasoner")));
        QCOMPARE(stack->index(), index + 1); // one undo step
        QString expected = before;
        expected.replace("{{from.l1_reasoner}}", "{{from.draft_reasoner}}");
        QCOMPARE(promptOf("l2_reasoner"), expected);
        QVERIFY(promptOf("l2_general").contains("{{from.l1_general}}"));
        QCOMPARE(document->problems().size(), problemsBefore); // no dangling reference
        QCOMPARE(sceneInconsistency(*document, *window.scene()), QString());

        stack->undo();
        QCOMPARE(promptOf("l2_reasoner"), before);
        QVERIFY(document->node(conclave::NodeId("l1_reasoner")));
        QVERIFY(!document->node(conclave::NodeId("draft_reasoner")));
        QCOMPARE(sceneInconsistency(*document, *window.scene()), QString());
    }

    void copyAndPasteAsTeamJson()
    {
        MainWindow window;
        QVERIFY(window.openFile(CONCLAVE_RESOURCES "/examples/keyword-vote.team.json", false));
        const size_t before = window.document()->team().nodes.size();
        window.scene()->selectNodes({conclave::NodeId("in")});
        window.copySelection();
        const QString text = QGuiApplication::clipboard()->text();
        QVERIFY(text.startsWith("{\n  \"conclave\": 1,"));
        QVERIFY(text.contains("\"id\": \"in\""));
        window.paste();
        QCOMPARE(window.document()->team().nodes.size(), before + 1);
        QCOMPARE(window.document()->team().nodes.back().id.str(), std::string("in_2"));
        QCOMPARE(sceneInconsistency(*window.document(), *window.scene()), QString());
        // Text that is not a team changes nothing.
        QGuiApplication::clipboard()->setText("hello");
        window.paste();
        QCOMPARE(window.document()->team().nodes.size(), before + 1);
    }
};

QTEST_MAIN(TestTeamEditor)
#include "tst_teameditor.moc"
