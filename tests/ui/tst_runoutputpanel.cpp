// RunOutputPanel: for a stored run it shows the selected node's stored result
// (status, answer, confidence, tokens, cost, text) and, for a node that never
// settled, the text its spans streamed (from the store, in span order); a new
// live run switches it back to the live nodes.
#include <QtTest>

#include "support/KnownRuns.h"

#include "run/RunController.h"
#include "run/RunOutputPanel.h"

#include <QTemporaryDir>

using namespace conclave;
using conclave::ui::RunController;
using conclave::ui::RunOutputPanel;

namespace {

// The known run with results for a, b and panel (none for m1, as if the run
// was interrupted), and text streamed by a's two attempts, b's and m1's two.
std::shared_ptr<const StoredRun> storedRun()
{
    StoredRun run = known_runs::review("0123456789ab");
    StoredNode a;
    a.node = NodeId("a");
    a.result.status = Status::Ok;
    a.result.text = "The answer is 4.";
    a.result.answer = "4";
    a.result.confidence = 0.9;
    a.result.tokensIn = 100;
    a.result.tokensOut = 50;
    a.result.costUsd = 0.01;
    StoredNode b;
    b.node = NodeId("b");
    b.result.status = Status::Cancelled;
    b.result.error = "stopped early";
    StoredNode panel;
    panel.node = NodeId("panel");
    panel.result.status = Status::Ok;
    panel.result.text = "Round 2: 4";
    panel.result.answer = "4";
    panel.result.confidence = 0.5;
    run.nodes = {a, b, panel};
    run.texts = {{SpanId(4), "The answer"},
                 {SpanId(3), "The ans"},
                 {SpanId(6), "Perhaps"},
                 {SpanId(13), "Round two"},
                 {SpanId(10), "Round one\n"}};
    return std::make_shared<const StoredRun>(std::move(run));
}

} // namespace

class TestRunOutputPanel : public QObject {
    Q_OBJECT

private slots:
    void showsAStoredRunsNode()
    {
        QTemporaryDir dir;
        RunController controller({}, (dir.path() + "/runs.sqlite").toStdString());
        RunOutputPanel panel(&controller);
        panel.showStoredRun(storedRun());
        panel.showNode(NodeId("a"));
        QCOMPARE(panel.title(), QString("Node a · run 01234567"));
        QCOMPARE(panel.figure("status"), QString("done"));
        QCOMPARE(panel.figure("answer"), QString("4"));
        QCOMPARE(panel.figure("confidence"), QString("0.90"));
        QCOMPARE(panel.figure("tokens"), QString("100 in, 50 out"));
        QCOMPARE(panel.figure("cost"), QString("$0.0100"));
        QCOMPARE(panel.text(), QString("The answer is 4.")); // its result's, not the streamed beginnings

        panel.showNode(NodeId("b"));
        QCOMPARE(panel.figure("status"), QString("cancelled: stopped early"));
        QCOMPARE(panel.figure("tokens"), QString("0 in, 0 out"));
        QCOMPARE(panel.text(), QString("Perhaps")); // cut short: what it streamed

        panel.showNode(NodeId("panel")); // nothing streamed: its result's text
        QCOMPARE(panel.figure("answer"), QString("4"));
        QCOMPARE(panel.figure("confidence"), QString("0.50"));
        QCOMPARE(panel.text(), QString("Round 2: 4"));

        panel.showNode(NodeId("m1")); // ran, stored no result: its span's status, its rounds' streamed text
        QCOMPARE(panel.figure("status"), QString("done"));
        QCOMPARE(panel.figure("answer"), QString("–"));
        QCOMPARE(panel.text(), QString("Round one\nRound two"));

        panel.showNode(NodeId("nobody"));
        QCOMPARE(panel.figure("status"), QString("–"));
    }

    void aLiveRunTakesOver()
    {
        QTemporaryDir dir;
        RunController controller({}, (dir.path() + "/runs.sqlite").toStdString());
        RunOutputPanel panel(&controller);
        panel.showNode(NodeId("a"));
        QCOMPARE(panel.title(), QString("Node a · live run"));
        QCOMPARE(panel.figure("status"), QString("–"));
        panel.showStoredRun(storedRun());
        QCOMPARE(panel.figure("answer"), QString("4"));
        QVERIFY(panel.storedRun());
        emit controller.started(RunId("fedcba987654"));
        QVERIFY(!panel.storedRun());
        QCOMPARE(panel.title(), QString("Node a · live run"));
        QCOMPARE(panel.figure("answer"), QString("–"));
        QCOMPARE(panel.text(), QString());
    }

    void storedTextIsTheResultsElseTheStreamedSpans()
    {
        const auto run = storedRun();
        QCOMPARE(RunOutputPanel::storedText(*run, NodeId("a")), std::string("The answer is 4."));
        QCOMPARE(RunOutputPanel::storedText(*run, NodeId("m1")), std::string("Round one\nRound two"));
        QCOMPARE(RunOutputPanel::storedText(*run, NodeId("b")), std::string("Perhaps"));
        QCOMPARE(RunOutputPanel::storedText(*run, NodeId("panel")), std::string("Round 2: 4"));
        QCOMPARE(RunOutputPanel::storedText(*run, NodeId("spare")), std::string());
    }
};

QTEST_MAIN(TestRunOutputPanel)
#include "tst_runoutputpanel.moc"
