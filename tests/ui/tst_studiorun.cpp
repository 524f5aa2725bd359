// Running a team from the studio: the live states reach the canvas in the
// order the engine emitted them, the stored run holds the spans the studio
// saw, Stop cancels, the run and replay tabs talk to the canvas, and the
// history dock lists, filters, re-runs, exports, compares and deletes runs.
// Every run goes to a temporary database.
#include <QtTest>

#include "document/TeamDocument.h"
#include "editor/NodeItem.h"
#include "editor/TeamScene.h"
#include "run/CanvasRunStates.h"
#include "run/RunController.h"
#include "run/RunEventAdapter.h"
#include "run/RunHistoryPanel.h"
#include "run/RunOutputPanel.h"
#include "run/RunToolBar.h"
#include "studio/MainWindow.h"
#include "timeline/CompareView.h"
#include "timeline/LatencyBoxPlot.h"
#include "timeline/ReplayView.h"
#include "timeline/RunSummaryView.h"
#include "timeline/RunView.h"
#include "timeline/TimeFormat.h"
#include "timeline/TimelineView.h"

#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>

#include <map>
#include <mutex>
#include <thread>

using namespace conclave;
using conclave::ui::MainWindow;
using StateStep = std::pair<NodeId, Status>;

namespace {

const QString kTeam = QStringLiteral(CONCLAVE_RESOURCES "/examples/keyword-vote.team.json");
const QString kMathInput = QStringLiteral("Calculate 323 + 460.");

// Sees the engine's events directly, on its threads: the state steps the
// canvas should show (a node's state each time it changes) and the spans.
class DirectObserver : public RunObserver {
public:
    void nodeQueued(const NodeId& node, int64_t) override
    {
        // A meeting's member is queued as a node after its first turn began: it stays running.
        if (last(node) != Status::Running)
            record(node, Status::Queued);
    }
    void spanStarted(const Span& span) override
    {
        // A meeting's member runs from its first turn.
        if (span.kind == SpanKind::Node || last(span.node) == Status::Queued)
            record(span.node, Status::Running);
    }
    void nodeFinished(const NodeId& node, const NodeResult& result, int64_t) override { record(node, result.status); }
    std::vector<StateStep> steps() const
    {
        std::lock_guard lock(m_mutex);
        return m_steps;
    }

private:
    std::optional<Status> last(const NodeId& node) const
    {
        std::lock_guard lock(m_mutex);
        const auto it = m_last.find(node);
        return it == m_last.end() ? std::nullopt : std::optional<Status>(it->second);
    }
    void record(const NodeId& node, Status status)
    {
        std::lock_guard lock(m_mutex);
        const auto it = m_last.find(node);
        if (it != m_last.end() && it->second == status)
            return;
        m_last[node] = status;
        m_steps.emplace_back(node, status);
    }

    mutable std::mutex m_mutex;
    std::map<NodeId, Status> m_last;
    std::vector<StateStep> m_steps;
};

QString describe(const std::vector<StateStep>& steps)
{
    QStringList out;
    for (const auto& [node, status] : steps)
        out << QString::fromStdString(node.str()) + "=" + QString::fromUtf8(toString(status).data());
    return out.join(' ');
}

// The window on the example team, with its local backend `scale` times its speed, and a store in `dir`.
void prepare(MainWindow& window, const QTemporaryDir& dir, double scale, const QString& file = kTeam)
{
    QVERIFY(window.setRunStore(dir.filePath("runs.sqlite")));
    QVERIFY(window.openFile(file, false));
    Team team = window.document()->team();
    for (auto& [name, backend] : team.backends)
        backend.timeScale = scale;
    window.document()->setTeam(team, kTeam);
}

bool runAndWait(MainWindow& window, const QString& input, uint64_t seed)
{
    window.runToolBar()->setInput(input);
    window.runToolBar()->setSeed(seed);
    window.action("actionRun")->trigger();
    if (!window.runController()->isRunning())
        return false;
    return QTest::qWaitFor([&] { return !window.runController()->isRunning(); }, 60000);
}

} // namespace

class TestStudioRun : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void theAdapterCoalescesTokensAndKeepsOrder()
    {
        ui::RunEventAdapter adapter;
        std::vector<ui::RunEvent> got;
        connect(&adapter, &ui::RunEventAdapter::delivered, this,
                [&](const std::vector<ui::RunEvent>& events) { got.insert(got.end(), events.begin(), events.end()); });
        std::thread engine([&] {
            adapter.nodeQueued(NodeId("a"), 1);
            for (int i = 0; i < 1000; ++i)
                adapter.nodeToken(NodeId("a"), 1, "x", 10 + i);
            adapter.nodeToken(NodeId("b"), 2, "y", 2000);
            NodeResult done;
            done.status = Status::Ok;
            adapter.nodeFinished(NodeId("a"), done, 3000);
            adapter.nodeToken(NodeId("a"), 1, "z", 3001);
        });
        engine.join();
        QCOMPARE(adapter.postedDrains(), 1); // one post while the queue was non-empty
        QTRY_COMPARE(got.size(), size_t(5));
        QVERIFY(got[0].type == ui::RunEvent::Type::NodeQueued);
        QVERIFY(got[1].type == ui::RunEvent::Type::Token);
        QCOMPARE(got[1].text, std::string(1000, 'x'));
        QCOMPARE(got[1].atUs, int64_t(1009));
        QCOMPARE(got[2].text, std::string("y"));
        QVERIFY(got[3].type == ui::RunEvent::Type::NodeFinished);
        QCOMPARE(got[4].text, std::string("z")); // not merged across the node's finish
    }

    // A debate's members have no node span while the meeting lasts (and are queued as nodes after their
    // first turn began): they show running from their first turn until they end.
    void aMeetingsMembersShowRunningFromTheirFirstTurn()
    {
        QTemporaryDir dir;
        MainWindow window;
        prepare(window, dir, 0.02, QStringLiteral(CONCLAVE_RESOURCES "/examples/debate.team.json"));
        DirectObserver direct;
        window.runController()->setExtraObservers({&direct});
        std::vector<StateStep> canvas;
        connect(window.canvasRunStates(), &ui::CanvasRunStates::stateShown, this,
                [&](const NodeId& node, Status status) { canvas.emplace_back(node, status); });
        QVERIFY(runAndWait(window, kMathInput, 7));
        QCOMPARE(describe(canvas), describe(direct.steps()));
        for (const char* member : {"reasoner", "mathematician", "generalist"}) {
            QStringList steps;
            for (const auto& [node, status] : canvas)
                if (node == NodeId(member))
                    steps << QString::fromStdString(std::string(toString(status)));
            QCOMPARE(steps.join(QChar(0x20)), QString("running ok"));
        }
    }

    void liveStatesReachTheCanvasInEngineOrder()
    {
        QTemporaryDir dir;
        MainWindow window;
        prepare(window, dir, 0.02);
        DirectObserver direct;
        window.runController()->setExtraObservers({&direct});
        std::vector<StateStep> canvas;
        connect(window.canvasRunStates(), &ui::CanvasRunStates::stateShown, this,
                [&](const NodeId& node, Status status) { canvas.emplace_back(node, status); });
        std::vector<Span> seen;
        QSignalSpy finished(window.runController(), &ui::RunController::finished);
        int finishedAtRunEnd = -1;
        bool runningAtRunEnd = false;
        connect(window.runController(), &ui::RunController::eventsDelivered, this,
                [&](const std::vector<ui::RunEvent>& events) {
                    for (const auto& e : events) {
                        if (e.type == ui::RunEvent::Type::SpanFinished)
                            seen.push_back(e.span);
                        if (e.type == ui::RunEvent::Type::RunFinished) {
                            finishedAtRunEnd = int(finished.size());
                            runningAtRunEnd = window.runController()->isRunning();
                        }
                    }
                });
        QVERIFY(runAndWait(window, kMathInput, 7));
        // The run's end did not wait for the store on the GUI thread: finished() came later, once it was stored.
        QCOMPARE(finishedAtRunEnd, 0);
        QVERIFY(runningAtRunEnd);
        QCOMPARE(finished.size(), 1);

        QCOMPARE(describe(canvas), describe(direct.steps()));
        QCOMPARE(describe(canvas), QString("in=queued in=running in=ok route=queued route=running route=ok "
                                           "math=queued general=skipped math=running math=ok vote=queued "
                                           "vote=running vote=ok out=queued out=running out=ok"));
        QCOMPARE(window.scene()->nodeItem(NodeId("general"))->runText(), QString("skipped"));
        QVERIFY(window.scene()->nodeItem(NodeId("out"))->runText().startsWith("done · "));

        // The stored run holds exactly the spans the studio saw finish.
        const auto id = *window.runController()->currentRun();
        QString error;
        const auto stored = window.runController()->loadRun(id, false, &error);
        QVERIFY2(stored, qPrintable(error));
        std::sort(seen.begin(), seen.end(), [](const Span& a, const Span& b) { return a.id < b.id; });
        QCOMPARE(stored->spans.size(), seen.size());
        for (size_t i = 0; i < seen.size(); ++i)
            QVERIFY2(stored->spans[i] == seen[i], qPrintable(QString::number(i)));
        QVERIFY(stored->summary.status == RunStatus::Ok);
        QCOMPARE(stored->output.answer, std::string("783"));
        QCOMPARE(stored->summary.seed, uint64_t(7));
        QCOMPARE(stored->summary.input, kMathInput.toStdString());
        QVERIFY(stored->summary.source == RunSource::Studio); // the studio's Run

        // The run tab opened; a bar and a node select each other.
        QCOMPARE(window.runTabs()->count(), 1);
        auto* view = qobject_cast<ui::RunView*>(window.runTabs()->currentWidget());
        QVERIFY(view);
        QCOMPARE(view->timelineModel()->run().summary.id, id);
        emit view->timeline()->spanClicked(NodeId("math"));
        QCOMPARE(window.scene()->selectedNodes(), std::vector<NodeId>{NodeId("math")});
        window.scene()->selectNodes({NodeId("vote")});
        QCOMPARE(view->timeline()->selectedLane(), view->timelineModel()->laneOf(NodeId("vote")));

        // The output dock shows the selected node's result.
        window.scene()->selectNodes({NodeId("out")});
        QCOMPARE(window.runOutput()->figure("status"), QString("done"));
        QCOMPARE(window.runOutput()->figure("answer"), QString::fromStdString(stored->output.answer));
        QVERIFY(!window.runOutput()->text().isEmpty());

        QCOMPARE(window.historyPanel()->visibleRuns(), std::vector<RunId>{id});
    }

    void theOutputDockShowsTheCurrentTabsRun()
    {
        QTemporaryDir dir;
        MainWindow window;
        prepare(window, dir, 0.02);
        QVERIFY(runAndWait(window, kMathInput, 7));
        const RunId first = *window.runController()->currentRun();
        QVERIFY(runAndWait(window, "Explain why the sky is blue.", 3));
        const RunId second = *window.runController()->currentRun();
        const auto a = window.runController()->loadRun(first, true);
        const auto b = window.runController()->loadRun(second, true);
        QVERIFY(a && b);
        auto* output = window.runOutput();
        const auto resultOf = [](const StoredRun& run, const char* node) {
            const auto it = std::find_if(run.nodes.begin(), run.nodes.end(),
                                         [node](const StoredNode& n) { return n.node == NodeId(node); });
            return it == run.nodes.end() ? NodeResult{} : it->result;
        };

        // The last run's tab is current.
        window.scene()->selectNodes({NodeId("out")});
        QCOMPARE(output->title(), "Node out · run " + QString::fromStdString(second.str()).left(8));
        QCOMPARE(output->figure("answer"), QString::fromStdString(b->output.answer));

        // A run opened from the history: its stored results and streamed text.
        emit window.historyPanel()->openRequested(first);
        QCOMPARE(output->title(), "Node out · run " + QString::fromStdString(first.str()).left(8));
        QCOMPARE(output->figure("answer"), QString("783"));
        window.scene()->selectNodes({NodeId("math")});
        const NodeResult math = resultOf(*a, "math");
        QCOMPARE(output->figure("status"), QString("done"));
        QCOMPARE(output->figure("answer"), QString::fromStdString(math.answer));
        QCOMPARE(output->figure("confidence"), QString::number(math.confidence, 'f', 2));
        QCOMPARE(output->figure("tokens"), QString("%1 in, %2 out").arg(math.tokensIn).arg(math.tokensOut));
        QCOMPARE(output->figure("cost"), ui::TimeFormat::cost(math.costUsd));
        QCOMPARE(output->text(), QString::fromStdString(math.text)); // as the live dock showed it at the end
        QVERIFY(!output->text().isEmpty());
        window.scene()->selectNodes({NodeId("general")}); // skipped in the first run
        QCOMPARE(output->figure("status"), QString("skipped"));

        // Back to the second run's tab; a replay tab shows its run too.
        window.runTabs()->setCurrentIndex(1); // tabs: the first run, the second, the first again from the history
        QCOMPARE(output->title(), "Node general · run " + QString::fromStdString(second.str()).left(8));
        QCOMPARE(output->figure("answer"), QString::fromStdString(resultOf(*b, "general").answer));
        QVERIFY(window.openReplayTab(first)); // at its playhead, which starts at 0
        QCOMPARE(output->title(), "Node general · run " + QString::fromStdString(first.str()).left(8) + " at " +
                                      ui::TimeFormat::duration(0));

        // With no run tab left, the last live run.
        while (window.runTabs()->count() > 0)
            emit window.runTabs()->tabCloseRequested(0);
        QVERIFY(!output->storedRun());
        QCOMPARE(output->title(), QString("Node general · live run"));
    }

    void stopCancelsTheRun()
    {
        QTemporaryDir dir;
        MainWindow window;
        prepare(window, dir, 1.0);
        window.runToolBar()->setInput(kMathInput);
        window.action("actionRun")->trigger();
        QVERIFY(window.runController()->isRunning());
        QVERIFY(!window.action("actionRun")->isEnabled());
        QTRY_VERIFY_WITH_TIMEOUT(window.canvasRunStates()->shown(NodeId("math")) == Status::Running, 20000);
        window.action("actionStop")->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(!window.runController()->isRunning(), 5000);
        QVERIFY(window.runController()->lastResult()->status == RunStatus::Cancelled);
        QVERIFY(window.canvasRunStates()->shown(NodeId("math")) == Status::Cancelled);
        QVERIFY(window.action("actionRun")->isEnabled());
        const auto stored = window.runController()->loadRun(*window.runController()->currentRun(), false);
        QVERIFY(stored && stored->summary.status == RunStatus::Cancelled);
        window.historyPanel()->setStatusFilter(RunStatus::Cancelled);
        QCOMPARE(window.historyPanel()->visibleRuns().size(), size_t(1));
        window.historyPanel()->setStatusFilter(RunStatus::Ok);
        QCOMPARE(window.historyPanel()->visibleRuns().size(), size_t(0));
    }

    // The triage example once kept the Run button busy forever on a single
    // question: its decompose meeting, behind the untaken route, never ended.
    void triageEndsAndTheRunButtonComesBack()
    {
        QTemporaryDir dir;
        MainWindow window;
        prepare(window, dir, 0.01, QStringLiteral(CONCLAVE_RESOURCES "/examples/triage.team.json"));
        for (const char* input : {"What is 2 + 2?", "Calculate 710 + 317."}) {
            QVERIFY2(runAndWait(window, QString::fromLatin1(input), 42), input);
            QVERIFY(window.action("actionRun")->isEnabled());
            const auto& result = *window.runController()->lastResult();
            QVERIFY2(result.status == RunStatus::Ok || result.status == RunStatus::Partial, input);
            for (const char* member : {"sub_math", "sub_facts", "sub_general"})
                QVERIFY(window.canvasRunStates()->shown(NodeId(member)) != Status::Running);
            const auto stored = window.runController()->loadRun(*window.runController()->currentRun(), false);
            QVERIFY(stored && stored->summary.status == result.status);
        }
    }

    void instantRunsOnTheSimulatedClock()
    {
        QTemporaryDir dir;
        MainWindow window;
        // At its own speed: 3.37 s of simulated latency, which Instant does not wait for.
        prepare(window, dir, 1.0, QStringLiteral(CONCLAVE_RESOURCES "/examples/triage.team.json"));
        window.runToolBar()->setInstant(true);
        QElapsedTimer timer;
        timer.start();
        QVERIFY(runAndWait(window, QStringLiteral("Calculate 323 + 460. And what is the capital city of France?"), 42));
        QVERIFY2(timer.elapsed() < 10000, qPrintable(QString::number(timer.elapsed())));
        const auto result = *window.runController()->lastResult();
        QCOMPARE(QString::fromUtf8(toString(result.clock).data()), QString("virtual"));
        QCOMPARE(result.wallUs, int64_t(3'374'692));
        const auto id = *window.runController()->currentRun();
        const auto stored = window.runController()->loadRun(id, false);
        QVERIFY(stored);
        QCOMPARE(QString::fromUtf8(toString(stored->summary.clock).data()), QString("virtual"));
        QCOMPARE(stored->summary.wallUs, result.wallUs);
        // The run view says which clock its times are on.
        auto* view = qobject_cast<ui::RunView*>(window.runTabs()->currentWidget());
        QVERIFY(view);
        QCOMPARE(view->summary()->figure("clock"), QString("simulated"));
        QCOMPARE(view->summary()->figure("wall"), ui::TimeFormat::duration(result.wallUs));
        // A re-run keeps the clock the run used, whatever the toolbar says now.
        window.runToolBar()->setInstant(false);
        QVERIFY(window.rerunStored(id));
        QVERIFY(QTest::qWaitFor([&] { return !window.runController()->isRunning(); }, 10000));
        QCOMPARE(QString::fromUtf8(toString(window.runController()->lastResult()->clock).data()), QString("virtual"));
        QVERIFY(window.runController()->lastResult()->spans == result.spans);

        // Unchecked, the studio's runs stay on the real clock, where a user can watch them.
        prepare(window, dir, 0.01, QStringLiteral(CONCLAVE_RESOURCES "/examples/keyword-vote.team.json"));
        QVERIFY(runAndWait(window, kMathInput, 42));
        QCOMPARE(QString::fromUtf8(toString(window.runController()->lastResult()->clock).data()), QString("real"));
        view = qobject_cast<ui::RunView*>(window.runTabs()->currentWidget());
        QVERIFY(view);
        QCOMPARE(view->summary()->figure("clock"), QString("real"));
    }

    void historyFiltersRerunsExportsAndDeletes()
    {
        QTemporaryDir dir;
        MainWindow window;
        prepare(window, dir, 0.02);
        auto* history = window.historyPanel();
        QCOMPARE(history->visibleRuns().size(), size_t(0));
        QVERIFY(runAndWait(window, kMathInput, 7));
        const RunId first = *window.runController()->currentRun();
        QVERIFY(runAndWait(window, "Explain why the sky is blue.", 3));
        const RunId second = *window.runController()->currentRun();
        QCOMPARE(history->visibleRuns(), (std::vector<RunId>{second, first})); // newest first

        history->setTextFilter("SKY");
        QCOMPARE(history->visibleRuns(), std::vector<RunId>{second});
        history->setTextFilter(QString::fromStdString(first.str()).left(10));
        QCOMPARE(history->visibleRuns(), std::vector<RunId>{first});
        history->setTextFilter({});
        history->setTeamFilter("Keyword routing with a vote");
        QCOMPARE(history->visibleRuns().size(), size_t(2));
        history->setStatusFilter(RunStatus::Failed);
        QCOMPARE(history->visibleRuns().size(), size_t(0));
        history->setStatusFilter(std::nullopt);

        // Re-run: the stored team, input and seed give the same outputs.
        QVERIFY(window.rerunStored(first));
        QTRY_VERIFY_WITH_TIMEOUT(!window.runController()->isRunning(), 60000);
        const RunId again = *window.runController()->currentRun();
        QVERIFY(again != first);
        const auto a = window.runController()->loadRun(first, true);
        const auto b = window.runController()->loadRun(again, true);
        QVERIFY(a && b);
        QCOMPARE(b->summary.input, a->summary.input);
        QCOMPARE(b->summary.seed, uint64_t(7));
        QCOMPARE(b->output.answer, a->output.answer);
        QCOMPARE(b->output.text, a->output.text);
        QCOMPARE(b->spans.size(), a->spans.size());
        QCOMPARE(b->nodes.size(), a->nodes.size());
        for (size_t i = 0; i < a->nodes.size(); ++i)
            QVERIFY2(b->nodes[i].result == a->nodes[i].result, a->nodes[i].node.str().c_str());
        QCOMPARE(b->summary.tokensIn + b->summary.tokensOut, a->summary.tokensIn + a->summary.tokensOut);
        QCOMPARE(history->visibleRuns().size(), size_t(3));

        // Export (the CLI's formats), compare, latency, chart export.
        const QString csv = dir.filePath("run.csv");
        QVERIFY(window.runController()->exportRun(first, ExportFormat::Csv, csv));
        QFile file(csv);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(QString::fromUtf8(file.readAll()).trimmed().split('\n').size(), int(a->spans.size()) + 1);
        QVERIFY(window.runController()->exportRun(first, ExportFormat::Chrome, dir.filePath("run.trace.json")));
        QVERIFY(window.openCompareTab(first, again));
        auto* compare = qobject_cast<ui::CompareView*>(window.runTabs()->currentWidget());
        QVERIFY(compare);
        QVERIFY(window.openLatencyTab("Keyword routing with a vote"));
        auto* plot = qobject_cast<ui::LatencyBoxPlot*>(window.runTabs()->currentWidget());
        QVERIFY(plot);
        QCOMPARE(plot->boxes().size(), size_t(6));
        QCOMPARE(plot->boxes().front().samples, 3);
        QVERIFY(window.exportChartTo(dir.filePath("latency.svg")));
        QVERIFY(QFileInfo(dir.filePath("latency.svg")).size() > 1000);

        // Replay drives the canvas at the playhead.
        QVERIFY(window.openRunTab(first));
        window.action("actionReplay")->trigger(); // replays the current run tab's run
        auto* replay = qobject_cast<ui::ReplayView*>(window.runTabs()->currentWidget());
        QVERIFY(replay);
        QCOMPARE(window.runTabs()->tabText(window.runTabs()->currentIndex()),
                 "Replay " + QString::fromStdString(first.str()).left(8));
        const auto& spans = a->spans;
        const auto math = std::find_if(spans.begin(), spans.end(), [](const Span& s) {
            return s.node == NodeId("math") && s.kind == SpanKind::Node;
        });
        QVERIFY(math != spans.end());
        replay->controller()->seek((math->startUs + math->endUs) / 2);
        QVERIFY(window.canvasRunStates()->shown(NodeId("math")) == Status::Running);
        QVERIFY(window.canvasRunStates()->shown(NodeId("in")) == Status::Ok);
        QCOMPARE(window.scene()->nodeItem(NodeId("math"))->runText(), QString("running"));
        replay->controller()->seek(replay->controller()->durationUs());
        QVERIFY(window.canvasRunStates()->shown(NodeId("out")) == Status::Ok);
        QVERIFY(window.exportChartTo(dir.filePath("replay.png")));

        QVERIFY(window.deleteRuns({again}));
        QCOMPARE(history->visibleRuns(), (std::vector<RunId>{second, first}));
    }
};

QTEST_MAIN(TestStudioRun)
#include "tst_studiorun.moc"
