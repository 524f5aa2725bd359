// Watching a run while it happens: its tab opens as it starts, and its lanes
// and bars grow (LiveRunTab) until it ends and the tab becomes the stored
// run's view; a run on the simulated clock opens finished; closing the live
// tab leaves the run going; after a run the output dock shows its answer
// until a node is selected.
#include <QtTest>

#include "StudioRunRig.h"

#include "run/RunToolBar.h"
#include "studio/LiveRunTab.h"
#include "studio/RunActions.h"
#include "timeline/RunSummaryView.h"
#include "timeline/RunView.h"
#include "timeline/TimelineView.h"

#include <QStandardPaths>

using namespace conclave;
using conclave::ui::RunView;
using conclave::ui::TimelineModel;

namespace {

const QStringList kLanes{"in", "route", "math", "general", "vote", "out"};

// The rig with a run toolbar and the Run menu's controller over it all.
struct Live : StudioRunRig {
    Live() { feedback.setInteractive(false); }
    ui::RunToolBar* bar = new ui::RunToolBar(&window);
    ui::RunActions* actions = new ui::RunActions(&runs, &document, bar, history, tabs, &feedback, &window);

    // The math specialist's first token comes after ten minutes of real time:
    // the run goes on, its math bar open, until it is stopped.
    void stallTheMathSpecialist()
    {
        Team team = document.team();
        auto& local = team.backends.at(BackendName("local"));
        local.timeScale = 1.0;
        ModelProfile stalled;
        stalled.ttftMs = Distribution{600'000, 600'000};
        local.models = std::map<std::string, ModelProfile>{{"local/math-13b", stalled}};
        team.defaults->timeoutMs = 1'200'000;
        document.setTeam(team, kTeam);
    }

    void start(const QString& input = kMathInput)
    {
        bar->setInput(input);
        bar->setSeed(7);
        actions->startRun();
    }

    RunView* view(int index = 0) const { return qobject_cast<RunView*>(tabs->tabs()->widget(index)); }
    QAction* action(const char* name) const { return window.findChild<QAction*>(name); }
};

QStringList laneIds(const TimelineModel& model)
{
    QStringList out;
    for (int i = 0; i < model.laneCount(); ++i)
        out << QString::fromStdString(model.lane(i).node.str());
    return out;
}

// "lane:status" per bar, "+open" when it has not ended, then ":attempt:status" per segment.
QStringList bars(const TimelineModel& model)
{
    QStringList out;
    for (int i = 0; i < int(model.bars().size()); ++i) {
        const auto& b = model.bars()[size_t(i)];
        QString text =
            QString::fromStdString(model.lane(b.lane).node.str()) + ":" + QString::fromUtf8(toString(b.status).data());
        if (b.flags & TimelineModel::Open)
            text += "+open";
        for (const auto& s : model.segments(i))
            text += QStringLiteral(" %1:%2").arg(QString::fromUtf8(toString(s.kind).data()),
                                                 QString::fromUtf8(toString(s.status).data()));
        out << text;
    }
    return out;
}

// The end of the math bar as the live tab drew it last; -1 when there is none.
int64_t mathBarEnd(const RunView& view)
{
    const auto model = view.timelineModel();
    const auto of = model->barsOfNode(NodeId("math"));
    return of.empty() ? -1 : model->bars()[size_t(of.front())].endUs();
}

// The tab's frame shows the math specialist's call attempt.
bool mathAttemptShown(const RunView& view)
{
    const auto model = view.timelineModel();
    const auto of = model->barsOfNode(NodeId("math"));
    return !of.empty() && model->segments(of.front()).size() == 1;
}

} // namespace

class TestLiveRunTab : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void theTabOpensAsTheRunStartsAndGrows()
    {
        Live r;
        r.stallTheMathSpecialist();
        QSignalSpy opened(r.tabs, &ui::RunTabs::tabOpened);
        r.start();
        QVERIFY(r.runs.isRunning());
        const RunId id = *r.runs.currentRun();

        // At once, before any event of the run arrived: the tab, its lanes, no bar yet.
        QCOMPARE(r.tabTitles(), QStringList{"Run " + StudioRunRig::shortId(id)});
        QCOMPARE(opened.size(), 1);
        RunView* view = r.view();
        QVERIFY(view);
        QVERIFY(view->isLive());
        QVERIFY(r.tabs->current().live);
        QCOMPARE(laneIds(*view->timelineModel()), kLanes);
        QCOMPARE(bars(*view->timelineModel()), QStringList{});
        QVERIFY(r.tabs->liveTab() && r.tabs->liveTab()->isTicking());
        QCOMPARE(r.tabs->liveTab()->interval(), ui::LiveRunTab::kIntervalMs);
        QVERIFY(!r.output->storedRun()); // the output dock follows the live run

        // Once the math specialist's call has begun: the input and router done, its bar open with the attempt.
        QTRY_VERIFY_WITH_TIMEOUT(mathAttemptShown(*view), 20000);
        QCOMPARE(laneIds(*view->timelineModel()), kLanes);
        QCOMPARE(bars(*view->timelineModel()), (QStringList{"in:ok", "route:ok", "math:running+open attempt:running"}));
        QVERIFY(view->timelineModel()->run().criticalPath.empty());

        // Its bar grows with the real clock, frame by frame ...
        const int64_t before = mathBarEnd(*view);
        QTRY_VERIFY_WITH_TIMEOUT(mathBarEnd(*view) > before, 5000);
        // ... and reaches exactly the time it is drawn at.
        r.tabs->liveTab()->showAt(5'000'000);
        QCOMPARE(mathBarEnd(*view), int64_t(5'000'000));
        QCOMPARE(view->timelineModel()->endUs(), int64_t(5'000'000));
        r.tabs->liveTab()->showAt(7'500'000);
        QCOMPARE(mathBarEnd(*view), int64_t(7'500'000));
        QCOMPARE(r.tabs->count(), 1);

        // Stopped: the same tab becomes the stored run's view, cancelled.
        QSignalSpy finished(&r.runs, &ui::RunController::finished);
        r.action("actionStop")->trigger();
        QVERIFY(finished.wait(10000));
        QCOMPARE(r.tabs->count(), 1);
        QCOMPARE(r.view(), view);
        QCOMPARE(opened.size(), 1);
        QVERIFY(!view->isLive());
        QVERIFY(!r.tabs->liveTab());
        const auto stored = r.runs.loadRun(id, false);
        QVERIFY(stored);
        QVERIFY(stored->summary.status == RunStatus::Cancelled);
        QVERIFY(view->timelineModel()->run().summary.status == RunStatus::Cancelled);
        QVERIFY(view->timelineModel()->run().spans == stored->spans);
        QCOMPARE(bars(*view->timelineModel()).value(2), QString("math:cancelled attempt:cancelled"));
        QCOMPARE(view->summary()->figure("status"), QString("cancelled"));
    }

    void aFinishedRunIsTheStoredRunAndTheDockShowsItsAnswer()
    {
        Live r;
        QSignalSpy opened(r.tabs, &ui::RunTabs::tabOpened);
        QSignalSpy finished(&r.runs, &ui::RunController::finished);
        r.start();
        const RunId id = *r.runs.currentRun();
        RunView* view = r.view();
        QVERIFY(view && view->isLive());
        QCOMPARE(r.output->title(), QString("Select a node to see its output"));
        QVERIFY(finished.wait(60000));

        QCOMPARE(opened.size(), 1);
        QCOMPARE(r.view(), view);
        QVERIFY(!view->isLive());
        QVERIFY(!r.tabs->current().live);
        const auto stored = r.runs.loadRun(id, false);
        QVERIFY(stored);
        const auto& shown = view->timelineModel()->run();
        QVERIFY(shown.spans == stored->spans);
        QCOMPARE(shown.criticalPath,
                 (std::vector<NodeId>{NodeId("in"), NodeId("route"), NodeId("math"), NodeId("vote"), NodeId("out")}));
        QVERIFY(view->timeline()->isFitted()); // as a tab opened from the history: the whole run
        QCOMPARE(view->timelineModel()->endUs(), TimelineModel(*stored).endUs());
        QCOMPARE(view->summary()->figure("clock"), QString("real"));

        // The dock: the run's answer, until a node is selected.
        const QString run = "run " + StudioRunRig::shortId(id);
        QCOMPARE(r.output->node(), std::optional<NodeId>(NodeId("out")));
        QCOMPARE(r.output->title(), "Node out · " + run);
        QCOMPARE(r.output->figure("answer"), QString("783"));
        QCOMPARE(r.output->figure("status"), QString("done"));
        r.scene.selectNodes({NodeId("math")});
        QCOMPARE(r.output->title(), "Node math · " + run);
        QCOMPARE(r.output->figure("status"), QString("done"));
    }

    // A node selected before the run stays the dock's, and is selected in the live timeline.
    void aSelectedNodeKeepsTheDock()
    {
        Live r;
        r.stallTheMathSpecialist();
        r.scene.selectNodes({NodeId("math")});
        r.start();
        RunView* view = r.view();
        QVERIFY(view);
        QCOMPARE(view->timeline()->selectedLane(), 2);
        QTRY_VERIFY_WITH_TIMEOUT(mathAttemptShown(*view), 20000);
        QCOMPARE(view->timeline()->selectedLane(), 2); // kept from frame to frame
        QSignalSpy finished(&r.runs, &ui::RunController::finished);
        r.actions->stopRun();
        QVERIFY(finished.wait(10000));
        QCOMPARE(r.output->node(), std::optional<NodeId>(NodeId("math")));
        QCOMPARE(r.output->title(), "Node math · run " + StudioRunRig::shortId(*r.runs.currentRun()));
        QCOMPARE(view->timeline()->selectedLane(), 2);
    }

    void anInstantRunOpensFinished()
    {
        Live r;
        r.bar->setInstant(true);
        QSignalSpy opened(r.tabs, &ui::RunTabs::tabOpened);
        QSignalSpy finished(&r.runs, &ui::RunController::finished);
        r.start();
        QVERIFY(r.runs.isRunning());
        QCOMPARE(r.tabs->count(), 0);
        QVERIFY(!r.tabs->liveTab());
        QVERIFY(finished.wait(60000));
        QCOMPARE(opened.size(), 1);
        QCOMPARE(r.tabs->count(), 1);
        QVERIFY(r.view() && !r.view()->isLive());
        QCOMPARE(r.view()->summary()->figure("clock"), QString("simulated"));
        QCOMPARE(r.output->title(), "Node out · run " + StudioRunRig::shortId(*r.runs.currentRun()));
    }

    void closingTheLiveTabLeavesTheRunGoing()
    {
        Live r;
        r.stallTheMathSpecialist();
        r.start();
        const RunId id = *r.runs.currentRun();
        QPointer<RunView> view = r.view();
        QTRY_VERIFY_WITH_TIMEOUT(mathAttemptShown(*view), 20000);
        emit r.tabs->tabs()->tabCloseRequested(0);
        QCOMPARE(r.tabs->count(), 0);
        QVERIFY(r.tabs->liveTab() && !r.tabs->liveTab()->isTicking());
        QTRY_VERIFY(!view);
        QVERIFY(!r.tabs->liveTab()->view());
        r.tabs->liveTab()->showAt(1'000'000); // nothing left to draw on
        QTest::qWait(3 * ui::LiveRunTab::kIntervalMs);
        QVERIFY(r.runs.isRunning());

        // Its end opens nothing: the user closed its tab. The history has it.
        QSignalSpy finished(&r.runs, &ui::RunController::finished);
        r.actions->stopRun();
        QVERIFY(finished.wait(10000));
        QCOMPARE(r.tabs->count(), 0);
        QVERIFY(!r.tabs->liveTab());
        QCOMPARE(r.history->visibleRuns(), std::vector<RunId>{id});
        const auto stored = r.runs.loadRun(id, false);
        QVERIFY(stored && stored->summary.status == RunStatus::Cancelled);

        // The next run opens its live tab again.
        r.start();
        QCOMPARE(r.tabs->count(), 1);
        QVERIFY(r.view()->isLive());
        r.actions->stopRun();
        QVERIFY(finished.wait(10000));
        QVERIFY(!r.view()->isLive());
    }
};

QTEST_MAIN(TestLiveRunTab)
#include "tst_liveruntab.moc"
