// The Run menu's controller: Run and Stop and when they are enabled, the run's
// start and end as status messages, its tab and its history row, Replay Run
// (the current run tab's run, else the last run), a run refused, the history
// dock's requests, and deleting runs.
#include <QtTest>

#include "StatusSpy.h"
#include "StudioRunRig.h"

#include "run/RunToolBar.h"
#include "studio/RunActions.h"

#include <QLineEdit>
#include <QStandardPaths>
#include <QTabWidget>

using namespace conclave;
using conclave::ui::RunActions;

constexpr auto shortId = &StudioRunRig::shortId;

namespace {

// The rig with a run toolbar and the controller over it all; never asks in a dialog.
struct Runs : StudioRunRig {
    Runs() { feedback.setInteractive(false); }
    ui::RunToolBar* bar = new ui::RunToolBar(&window);
    RunActions* actions = new RunActions(&runs, &document, bar, history, tabs, &feedback, &window);

    QAction* action(const char* name) const { return window.findChild<QAction*>(name); }
    // Runs through the Run action and waits until the run is stored.
    std::optional<RunId> runAndWait(const QString& input, uint64_t seed)
    {
        bar->setInput(input);
        bar->setSeed(seed);
        QSignalSpy finished(&runs, &ui::RunController::finished);
        action("actionRun")->trigger();
        if (!runs.isRunning() || !finished.wait(60000))
            return std::nullopt;
        return runs.currentRun();
    }
};

} // namespace

class TestRunActions : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void theActionsBeforeAnyRun_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("text");
        QTest::addColumn<QKeySequence>("shortcut");
        QTest::addColumn<bool>("enabled");
        QTest::newRow("run") << "actionRun"
                             << "&Run" << QKeySequence("Ctrl+R") << true;
        QTest::newRow("stop") << "actionStop"
                              << "&Stop" << QKeySequence("Ctrl+.") << false;
        QTest::newRow("replay") << "actionReplay"
                                << "Re&play Run" << QKeySequence("Ctrl+Shift+R") << false;
        QTest::newRow("export chart") << "actionExportChart"
                                      << "Export &Chart…" << QKeySequence() << false;
    }

    void theActionsBeforeAnyRun()
    {
        QFETCH(QString, name);
        QFETCH(QString, text);
        QFETCH(QKeySequence, shortcut);
        QFETCH(bool, enabled);
        Runs r;
        auto* a = r.action(qPrintable(name));
        QVERIFY(a);
        QCOMPARE(a->text(), text);
        QCOMPARE(a->shortcut(), shortcut);
        QCOMPARE(a->isEnabled(), enabled);
    }

    void runAndStopLeadTheRunToolbar()
    {
        Runs r;
        QCOMPARE(r.bar->actions().value(0), r.action("actionRun"));
        QCOMPARE(r.bar->actions().value(1), r.action("actionStop"));
    }

    void aRunWithoutInputIsRefused()
    {
        Runs r;
        StatusSpy status(&r.feedback);
        QVERIFY(!r.actions->startRun());
        QVERIFY(!r.runs.isRunning());
        QCOMPARE(status.messages(), QStringList{StatusSpy::format("Type an input for the run, or pick a task", 6000)});
    }

    void aRunStartsEndsAndOpensItsTab()
    {
        Runs r;
        StatusSpy status(&r.feedback);
        r.bar->setInput(StudioRunRig::kMathInput);
        r.bar->setSeed(7);
        QSignalSpy finished(&r.runs, &ui::RunController::finished);
        r.action("actionRun")->trigger();
        QVERIFY(r.runs.isRunning());
        QVERIFY(!r.action("actionRun")->isEnabled());
        QVERIFY(r.action("actionStop")->isEnabled());
        const RunId id = *r.runs.currentRun();
        QCOMPARE(status.messages(),
                 QStringList{StatusSpy::format("Running Keyword routing with a vote (run " + shortId(id) + ")…", 0)});
        QVERIFY(finished.wait(60000));
        QCOMPARE(status.last(), StatusSpy::format("Run " + shortId(id) + ": ok · answer 783", 0));
        QVERIFY(r.action("actionRun")->isEnabled());
        QVERIFY(!r.action("actionStop")->isEnabled());
        QVERIFY(r.action("actionReplay")->isEnabled());
        QVERIFY(r.action("actionExportChart")->isEnabled());
        QCOMPARE(r.tabTitles(), QStringList{"Run " + shortId(id)});
        QCOMPARE(r.history->visibleRuns(), std::vector<RunId>{id});
        QCOMPARE(r.history->selectedRuns(), std::vector<RunId>{id});
    }

    // Replay Run replays the current run tab's run; from a replay tab, the last run.
    void replayTheCurrentRunTabElseTheLastRun()
    {
        Runs r;
        const auto first = r.runAndWait(StudioRunRig::kMathInput, 7);
        const auto second = r.runAndWait("Explain why the sky is blue.", 3);
        QVERIFY(first && second);
        r.tabs->tabs()->setCurrentIndex(0);
        r.action("actionReplay")->trigger();
        r.action("actionReplay")->trigger();
        QCOMPARE(r.tabTitles(), (QStringList{"Run " + shortId(*first), "Run " + shortId(*second),
                                             "Replay " + shortId(*first), "Replay " + shortId(*second)}));
    }

    void stopSaysSo()
    {
        Runs r;
        StatusSpy status(&r.feedback);
        r.action("actionStop")->setEnabled(true);
        r.action("actionStop")->trigger();
        QCOMPARE(status.messages(), QStringList{StatusSpy::format("Stopping…", 3000)});
    }

    // A team the engine refuses: the whole error is kept, its first line shown.
    void aRunRefusedByTheEngine()
    {
        Runs r;
        Team team = r.document.team();
        team.edges.pop_back(); // vote -> out: the output has no input
        r.document.setTeam(team, StudioRunRig::kTeam);
        r.bar->setInput(StudioRunRig::kMathInput);
        StatusSpy status(&r.feedback);
        QVERIFY(!r.actions->startRun());
        QVERIFY(!r.runs.isRunning());
        const QString error = r.feedback.lastError();
        QVERIFY(!error.isEmpty());
        QString expected;
        QVERIFY(!r.runs.start(team, StudioRunRig::kMathInput.toStdString(), std::nullopt, &expected));
        QCOMPARE(error, expected);
        QCOMPARE(status.messages(), QStringList{StatusSpy::format("Cannot run: " + error.section('\n', 0, 0), 10000)});
        QVERIFY(r.action("actionRun")->isEnabled());
    }

    void theHistorysRequests()
    {
        Runs r;
        const auto first = r.runAndWait(StudioRunRig::kMathInput, 7);
        QVERIFY(first);
        StatusSpy status(&r.feedback);
        emit r.history->errorOccurred("database is locked");
        QCOMPARE(status.messages(), QStringList{StatusSpy::format("Run history: database is locked", 8000)});

        emit r.history->openRequested(*first);
        emit r.history->replayRequested(*first);
        emit r.history->compareRequested(*first, *first);
        emit r.history->latencyRequested("Keyword routing with a vote");
        QCOMPARE(r.tabTitles(),
                 (QStringList{"Run " + shortId(*first), "Run " + shortId(*first), "Replay " + shortId(*first),
                              "Compare " + shortId(*first) + " · " + shortId(*first),
                              "Latency · Keyword routing with a vote"}));

        QSignalSpy finished(&r.runs, &ui::RunController::finished);
        emit r.history->rerunRequested(*first);
        QVERIFY(finished.wait(60000));
        const RunId again = *r.runs.currentRun();
        QVERIFY(again != *first);
        QCOMPARE(r.history->visibleRuns(), (std::vector<RunId>{again, *first}));

        status.clear();
        emit r.history->deleteRequested({again}); // not interactive: not asked
        QCOMPARE(status.messages(), QStringList{StatusSpy::format("Deleted 1 run", 6000)});
        QCOMPARE(r.history->visibleRuns(), std::vector<RunId>{*first});
    }

    void aStoredRunThatIsGoneCannotBeRerun()
    {
        Runs r;
        StatusSpy status(&r.feedback);
        const RunId missing("0123456789abcdef");
        QVERIFY(!r.actions->rerunStored(missing));
        QString error;
        QVERIFY(!r.runs.loadRun(missing, false, &error));
        QVERIFY(!error.isEmpty());
        QCOMPARE(status.messages(), QStringList{StatusSpy::format("Cannot re-run 01234567: " + error, 8000)});
        QVERIFY(!r.runs.isRunning());
    }

    void anotherStoreRefreshesTheHistory()
    {
        Runs r;
        QVERIFY(r.runAndWait(StudioRunRig::kMathInput, 7));
        QCOMPARE(r.history->visibleRuns().size(), size_t(1));
        QVERIFY(r.actions->setRunStore(r.dir.filePath("other.sqlite")));
        QVERIFY(r.history->visibleRuns().empty());
    }
};

QTEST_MAIN(TestRunActions)
#include "tst_runactions.moc"
