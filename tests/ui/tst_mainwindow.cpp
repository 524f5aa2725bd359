#include "studio/MainWindow.h"

#include <QFile>
#include <QListWidget>
#include <QTemporaryDir>
#include <QTreeWidget>
#include <QtTest>

using conclave::ui::MainWindow;

class TestMainWindow : public QObject {
    Q_OBJECT

private slots:
    void opensAnExampleAndListsItsNodes()
    {
        MainWindow window;
        QVERIFY(window.openFile(CONCLAVE_RESOURCES "/examples/keyword-vote.team.json", false));
        auto* nodes = window.findChild<QTreeWidget*>();
        QVERIFY(nodes);
        QCOMPARE(nodes->topLevelItemCount(), 6);
        QCOMPARE(nodes->topLevelItem(0)->text(1), QString("input"));
        auto* problems = window.findChild<QListWidget*>();
        QCOMPARE(problems->count(), 1);
        QCOMPARE(problems->item(0)->text(), QString("No problems"));
        QVERIFY(window.windowTitle().endsWith(" - Conclave Studio"));
    }

    void aBadFileLeavesTheCurrentTeamUntouched()
    {
        MainWindow window;
        QVERIFY(window.openFile(CONCLAVE_RESOURCES "/examples/cascade.team.json", false));
        const auto title = window.windowTitle();
        const int count = window.findChild<QTreeWidget*>()->topLevelItemCount();
        QTemporaryDir dir;
        QFile bad(dir.filePath("bad.team.json"));
        QVERIFY(bad.open(QIODevice::WriteOnly));
        bad.write("{\"conclave\": 1,");
        bad.close();
        QVERIFY(!window.openFile(bad.fileName(), false));
        QCOMPARE(window.windowTitle(), title);
        QCOMPARE(window.findChild<QTreeWidget*>()->topLevelItemCount(), count);
    }

    void rendersAScreenshot()
    {
        MainWindow window;
        QVERIFY(window.openFile(CONCLAVE_RESOURCES "/examples/triage.team.json", false));
        window.show();
        const QImage image = window.grab().toImage();
        QVERIFY(image.width() > 400 && image.height() > 300);
        // Not blank: more than a handful of distinct colours.
        QSet<QRgb> colours;
        for (int y = 0; y < image.height(); y += 7)
            for (int x = 0; x < image.width(); x += 7)
                colours.insert(image.pixel(x, y));
        QVERIFY(colours.size() > 5);
    }
};

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
