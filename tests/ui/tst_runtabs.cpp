// The run views below the canvas: opening each kind of tab (and failing to),
// the one current tab driving the output dock (a replay's at its playhead, with
// the inspector's run line), the canvas's replay states and the timeline's selection, a bar's click, closing, and chart
// export.
#include <QtTest>

#include "StatusSpy.h"
#include "StudioRunRig.h"

#include "inspector/Inspector.h"
#include "studio/RunTabs.h"
#include "timeline/CompareView.h"
#include "timeline/LatencyBoxPlot.h"
#include "timeline/ReplayView.h"
#include "timeline/RunView.h"
#include "timeline/TimeFormat.h"
#include "timeline/TimelineView.h"

#include <QStandardPaths>
#include <QTabWidget>

using namespace conclave;
using conclave::ui::RunTabs;

constexpr auto shortId = &StudioRunRig::shortId;

class TestRunTabs : public QObject {
    Q_OBJECT

private:
    // Two stored runs of the example, shared by the tests (each test opens its own tabs).
    StudioRunRig* m_rig = nullptr;
    RunId m_first, m_second;

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        m_rig = new StudioRunRig;
        const auto first = m_rig->run(StudioRunRig::kMathInput, 7);
        const auto second = m_rig->run("Explain why the sky is blue.", 3);
        QVERIFY(first && second);
        m_first = *first;
        m_second = *second;
    }

    void cleanupTestCase() { delete m_rig; }

    void cleanup()
    {
        auto* tabs = m_rig->tabs->tabs();
        while (tabs->count() > 0)
            emit tabs->tabCloseRequested(0);
        m_rig->scene.clearSelection();
    }

    void startsHiddenWithNoTab()
    {
        QCOMPARE(m_rig->tabs->count(), 0);
        QVERIFY(m_rig->tabs->tabs()->isHidden());
        QCOMPARE(m_rig->tabs->tabs()->objectName(), QString("runTabs"));
        QVERIFY(m_rig->tabs->tabs()->tabsClosable());
        QCOMPARE(m_rig->split->indexOf(m_rig->tabs->tabs()), 0);
    }

    void aRunTabShowsItsRunInTheOutputDock()
    {
        QSignalSpy opened(m_rig->tabs, &RunTabs::tabOpened);
        QSignalSpy changed(m_rig->tabs, &RunTabs::currentTabChanged);
        QVERIFY(m_rig->tabs->openRunTab(m_first));
        QCOMPARE(opened.size(), 1);
        QCOMPARE(changed.size(), 1);
        QVERIFY(!m_rig->tabs->tabs()->isHidden());
        QCOMPARE(m_rig->tabTitles(), QStringList{"Run " + shortId(m_first)});
        const auto stored = m_rig->runs.loadRun(m_first, false);
        QVERIFY(stored);
        QCOMPARE(m_rig->tabs->tabs()->tabToolTip(0), ui::RunView::headerText(*stored));
        const auto tab = m_rig->tabs->current();
        QCOMPARE(tab.model->run().summary.id, m_first);
        QVERIFY(!tab.replay);
        QCOMPARE(m_rig->output->storedRun()->summary.id, m_first);

        // The canvas's selected node is selected in the current tab's timeline and shown in the dock.
        m_rig->scene.selectNodes({NodeId("vote")});
        QCOMPARE(tab.timeline->selectedLane(), tab.model->laneOf(NodeId("vote")));
        QCOMPARE(m_rig->output->title(), "Node vote · run " + shortId(m_first));
    }

    void aNewTabSelectsTheSelectedNode()
    {
        m_rig->scene.selectNodes({NodeId("math")});
        QVERIFY(m_rig->tabs->openRunTab(m_second));
        const auto tab = m_rig->tabs->current();
        QCOMPARE(tab.timeline->selectedLane(), tab.model->laneOf(NodeId("math")));
    }

    void aBarClickNamesItsNode()
    {
        QVERIFY(m_rig->tabs->openRunTab(m_first));
        QVERIFY(m_rig->tabs->openCompareTab(m_first, m_second));
        QSignalSpy clicked(m_rig->tabs, &RunTabs::spanClicked);
        emit m_rig->tabs->current().chart->findChild<ui::TimelineView*>()->spanClicked(NodeId("math"));
        m_rig->tabs->tabs()->setCurrentIndex(0);
        emit m_rig->tabs->current().timeline->spanClicked(NodeId("route"));
        QCOMPARE(clicked.size(), 2);
        QCOMPARE(clicked.at(0).at(0).value<NodeId>(), NodeId("math"));
        QCOMPARE(clicked.at(1).at(0).value<NodeId>(), NodeId("route"));
    }

    // A replay tab puts its playhead's states on the canvas while it is current.
    void aReplayDrivesTheCanvasWhileCurrent()
    {
        QVERIFY(m_rig->tabs->openReplayTab(m_first));
        QCOMPARE(m_rig->tabTitles(), QStringList{"Replay " + shortId(m_first)});
        auto* replay = m_rig->tabs->current().replay;
        QVERIFY(replay);
        QVERIFY(m_rig->states.shown(NodeId("in")) == Status::Queued ||
                m_rig->states.shown(NodeId("in")) == Status::Running);
        replay->seek(replay->durationUs());
        QVERIFY(m_rig->states.shown(NodeId("out")) == Status::Ok);
        QVERIFY(m_rig->tabs->openRunTab(m_second));
        replay->seek(0); // no longer current: the canvas keeps what it showed
        QVERIFY(m_rig->states.shown(NodeId("out")) == Status::Ok);
        m_rig->tabs->tabs()->setCurrentIndex(0); // current again: its states come back
        QVERIFY(m_rig->states.shown(NodeId("out")) != Status::Ok);
        QCOMPARE(m_rig->output->storedRun()->summary.id, m_first);
    }

    // The math question: route answers at once, math runs until it settles, then vote and out.
    void aReplaysOutputDockFollowsItsPlayhead()
    {
        const auto stored = m_rig->runs.loadRun(m_first, true);
        QVERIFY(stored);
        const Span* math = nullptr;
        for (const auto& s : stored->spans)
            math = s.node == NodeId("math") && s.kind == SpanKind::Node ? &s : math;
        QVERIFY(math && math->endUs > math->startUs + 2);
        ui::Inspector inspector(&m_rig->document);
        connect(m_rig->output, &ui::RunOutputPanel::runLineChanged, &inspector, &ui::Inspector::setRunLine);
        const auto figures = [this] {
            QStringList out;
            for (const char* name : {"status", "answer", "confidence", "tokens", "cost"})
                out << m_rig->output->figure(name);
            return out << m_rig->output->text();
        };
        const auto select = [&](const char* node) {
            m_rig->scene.selectNodes({NodeId(node)});
            inspector.showNode(NodeId(node)); // as the window does on a selection
        };

        // The final results, as a run tab shows them.
        QVERIFY(m_rig->tabs->openRunTab(m_first));
        select("vote");
        const QStringList finalVote = figures();
        QCOMPARE(finalVote, (QStringList{"done", "783", "0.70", "0 in, 0 out", "$0",
                                         "Considering the question carefully:\nAnswer: 783\nConfidence: 0.70"}));
        QCOMPARE(inspector.runLine(), "Run " + shortId(m_first) + ": done · answer 783 · conf 0.70");

        QVERIFY(m_rig->tabs->openReplayTab(m_first));
        auto* replay = m_rig->tabs->current().replay;
        QCOMPARE(m_rig->output->playhead(), std::optional<int64_t>(0));
        QCOMPARE(m_rig->output->title(), "Node vote · run " + shortId(m_first) + " at 0 µs");
        QCOMPARE(figures(), (QStringList{"queued", "–", "–", "–", "–", ""}));
        QCOMPARE(m_rig->output->placeholder(), QString("Not started by 0 µs"));
        QCOMPARE(inspector.runLine(), QString("At the playhead (0 µs): queued"));

        replay->seek(replay->durationUs());
        const QString end = ui::TimeFormat::duration(replay->durationUs());
        QCOMPARE(m_rig->output->title(), "Node vote · run " + shortId(m_first) + " at " + end);
        QCOMPARE(figures(), finalVote);
        QCOMPARE(inspector.runLine(), "At the playhead (" + end + "): done · answer 783 · conf 0.70");

        // Mid-run: route has answered, math is running (its text not revealed), vote has not started.
        const int64_t mid = (math->startUs + math->endUs) / 2;
        replay->seek(mid);
        const QString at = ui::TimeFormat::duration(mid);
        const QString since = "running since " + ui::TimeFormat::duration(math->startUs);
        QCOMPARE(figures(), (QStringList{"queued", "–", "–", "–", "–", ""}));
        select("route");
        QCOMPARE(figures(), (QStringList{"done", "math", "1.00", "0 in, 0 out", "$0", "Calculate 323 + 460."}));
        QCOMPARE(inspector.runLine(), "At the playhead (" + at + "): done · answer math · conf 1.00");
        select("math");
        QCOMPARE(figures(), (QStringList{since, "–", "–", "–", "–", ""}));
        QCOMPARE(m_rig->output->placeholder(),
                 "R" + since.mid(1) +
                     ": the store keeps a span's text, not when each piece of it streamed, so its text shows when "
                     "the span ends");
        QCOMPARE(inspector.runLine(), "At the playhead (" + at + "): " + since);

        // Another tab: its final results; the replay again: its playhead's.
        m_rig->tabs->tabs()->setCurrentIndex(0);
        QVERIFY(!m_rig->output->playhead());
        QCOMPARE(m_rig->output->figure("status"), QString("done"));
        QCOMPARE(inspector.runLine(), "Run " + shortId(m_first) + ": done · answer 783 · conf 0.70");
        replay->seek(0); // not current: the dock keeps the run tab's
        QCOMPARE(m_rig->output->figure("status"), QString("done"));
        m_rig->tabs->tabs()->setCurrentIndex(1);
        QCOMPARE(m_rig->output->playhead(), std::optional<int64_t>(0));
        QCOMPARE(figures(), (QStringList{"queued", "–", "–", "–", "–", ""}));
        inspector.showTeam();
        QCOMPARE(inspector.runLine(), QString()); // only for a node
    }

    void aCompareTabHasNoOneRun()
    {
        QVERIFY(m_rig->tabs->openRunTab(m_second));
        QVERIFY(m_rig->tabs->openCompareTab(m_first, m_second));
        QCOMPARE(m_rig->tabTitles(),
                 (QStringList{"Run " + shortId(m_second), "Compare " + shortId(m_first) + " · " + shortId(m_second)}));
        QVERIFY(qobject_cast<ui::CompareView*>(m_rig->tabs->tabs()->currentWidget()));
        QVERIFY(!m_rig->tabs->current().model);
        QVERIFY(!m_rig->output->storedRun()); // the dock goes back to the live or last run
    }

    void aLatencyTabOverTheTeamsRuns()
    {
        QVERIFY(m_rig->tabs->openLatencyTab("Keyword routing with a vote"));
        QCOMPARE(m_rig->tabTitles(), QStringList{"Latency · Keyword routing with a vote"});
        auto* plot = qobject_cast<ui::LatencyBoxPlot*>(m_rig->tabs->tabs()->currentWidget());
        QVERIFY(plot);
        QCOMPARE(plot->boxes().size(), size_t(6));
        QCOMPARE(plot->boxes().front().samples, 2);
        QTemporaryDir dir;
        QVERIFY(m_rig->tabs->exportChartTo(dir.filePath("latency.svg")));
        QVERIFY(QFileInfo(dir.filePath("latency.svg")).size() > 1000);
    }

    void failuresAreStatusMessages()
    {
        StatusSpy status(&m_rig->feedback);
        const RunId missing("0123456789abcdef");
        QVERIFY(!m_rig->tabs->openRunTab(missing));
        QVERIFY(!m_rig->tabs->openReplayTab(missing));
        QVERIFY(!m_rig->tabs->openCompareTab(m_first, missing));
        QVERIFY(!m_rig->tabs->openLatencyTab("Nobody's team"));
        QString error;
        QVERIFY(!m_rig->runs.loadRun(missing, false, &error));
        QCOMPARE(status.messages(), (QStringList{
                                        StatusSpy::format("Cannot open run 01234567: " + error, 8000),
                                        StatusSpy::format("Cannot replay run 01234567: " + error, 8000),
                                        StatusSpy::format("Cannot compare: " + error, 8000),
                                        StatusSpy::format("No latency plot for Nobody's team: no finished runs", 8000),
                                    }));
        QCOMPARE(m_rig->tabs->count(), 0);
        QVERIFY(m_rig->tabs->tabs()->isHidden());
        QString exportError;
        QVERIFY(!m_rig->tabs->exportChartTo("/tmp/never.png", &exportError));
        QCOMPARE(exportError, QString("no run view is open"));
    }

    void closingTheLastTabHidesThem()
    {
        QVERIFY(m_rig->tabs->openRunTab(m_first));
        QVERIFY(m_rig->tabs->openRunTab(m_second));
        QSignalSpy changed(m_rig->tabs, &RunTabs::currentTabChanged);
        emit m_rig->tabs->tabs()->tabCloseRequested(1);
        QCOMPARE(m_rig->tabTitles(), QStringList{"Run " + shortId(m_first)});
        QCOMPARE(m_rig->output->storedRun()->summary.id, m_first);
        emit m_rig->tabs->tabs()->tabCloseRequested(0);
        QCOMPARE(m_rig->tabs->count(), 0);
        QVERIFY(m_rig->tabs->tabs()->isHidden());
        QVERIFY(!m_rig->output->storedRun());
        QCOMPARE(changed.size(), 2);
    }
};

QTEST_MAIN(TestRunTabs)
#include "tst_runtabs.moc"
