// RunOutputPanel: for a stored run it shows the selected node's stored result
// (status, answer, confidence, tokens, cost, text) and, for a node that never
// settled, the text its spans streamed (from the store, in span order); a new
// live run switches it back to the live nodes. At a replay's playhead it shows
// what the node had produced by then, and says it in one line for the inspector.
#include <QtTest>

#include "support/KnownRuns.h"

#include "document/TeamDocument.h" // NodeId as a QVariant
#include "run/RunController.h"
#include "run/RunOutputPanel.h"

#include <QSignalSpy>
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

    // a retries from 2.1 ms and finishes with its node span at 5.1 ms (no recorded finish);
    // m1 has no result: between its rounds it is done, with its first round's text.
    void atAPlayheadWhatItHadProducedByThen_data()
    {
        QTest::addColumn<QString>("node");
        QTest::addColumn<qint64>("at");
        QTest::addColumn<QString>("title");
        QTest::addColumn<QStringList>("figures"); // status, answer, confidence, tokens, cost
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("placeholder");
        QTest::addColumn<QString>("line");
        const QStringList none{"–", "–", "–", "–"};
        QTest::newRow("not started") << "a" << qint64(0) << "Node a · run 01234567 at 0 µs"
                                     << (QStringList{"queued"} + none) << ""
                                     << "Not started by 0 µs"
                                     << "At the playhead (0 µs): queued";
        QTest::newRow("the failed attempt's text, the retry's not yet")
            << "a" << qint64(2100) << "Node a · run 01234567 at 2.10 ms" << (QStringList{"running since 100 µs"} + none)
            << "The ans"
            << "Running since 100 µs: the store keeps a span's text, not when each piece of it streamed, so its "
               "text shows when the span ends"
            << "At the playhead (2.10 ms): running since 100 µs";
        QTest::newRow("finished: the final figures")
            << "a" << qint64(5100) << "Node a · run 01234567 at 5.10 ms"
            << QStringList{"done", "4", "0.90", "100 in, 50 out", "$0.0100"} << "The answer is 4."
            << "No text by 5.10 ms"
            << "At the playhead (5.10 ms): done · answer 4 · conf 0.90";
        QTest::newRow("no result: done between its rounds")
            << "m1" << qint64(4050) << "Node m1 · run 01234567 at 4.05 ms" << (QStringList{"done"} + none)
            << "Round one\n"
            << "No text by 4.05 ms"
            << "At the playhead (4.05 ms): done";
        QTest::newRow("cut short, at the end")
            << "b" << qint64(9300) << "Node b · run 01234567 at 9.30 ms"
            << QStringList{"cancelled: stopped early", "", "0.00", "0 in, 0 out", "$0"} << "Perhaps"
            << "No text by 9.30 ms"
            << "At the playhead (9.30 ms): cancelled: stopped early";
        QTest::newRow("a node the run does not name")
            << "nobody" << qint64(100) << "Node nobody · run 01234567 at 100 µs" << QStringList(5, "–") << ""
            << "No text by 100 µs"
            << "";
    }

    void atAPlayheadWhatItHadProducedByThen()
    {
        QFETCH(QString, node);
        QFETCH(qint64, at);
        QFETCH(QString, title);
        QFETCH(QStringList, figures);
        QFETCH(QString, text);
        QFETCH(QString, placeholder);
        QFETCH(QString, line);
        QTemporaryDir dir;
        RunController controller({}, (dir.path() + "/runs.sqlite").toStdString());
        RunOutputPanel panel(&controller);
        panel.showNode(NodeId(node.toStdString()));
        panel.showStoredRunAt(storedRun(), at);
        QCOMPARE(panel.playhead(), std::optional<int64_t>(at));
        QCOMPARE(panel.title(), title);
        QStringList shown;
        for (const char* name : {"status", "answer", "confidence", "tokens", "cost"})
            shown << panel.figure(name);
        QCOMPARE(shown, figures);
        QCOMPARE(panel.text(), text);
        QCOMPARE(panel.placeholder(), placeholder);
        QCOMPARE(panel.runLine(), line);
    }

    void aRunTabShowsTheFinalResultsInItsLine()
    {
        QTemporaryDir dir;
        RunController controller({}, (dir.path() + "/runs.sqlite").toStdString());
        RunOutputPanel panel(&controller);
        const auto run = storedRun();
        panel.showNode(NodeId("a"));
        QSignalSpy lines(&panel, &RunOutputPanel::runLineChanged);
        panel.showStoredRunAt(run, 0);
        panel.showStoredRun(run); // the same run, now its final results
        QVERIFY(!panel.playhead());
        QCOMPARE(panel.title(), QString("Node a · run 01234567"));
        QCOMPARE(panel.runLine(), QString("Run 01234567: done · answer 4 · conf 0.90"));
        panel.showNode(NodeId("spare")); // no result, no span: nothing to say
        panel.showNode(NodeId("a"));
        panel.showStoredRun(run); // the same line again: no signal
        QCOMPARE(lines.size(), 4);
        QCOMPARE(lines.at(0).at(1).toString(), QString("At the playhead (0 µs): queued"));
        QCOMPARE(lines.at(1).at(1).toString(), QString("Run 01234567: done · answer 4 · conf 0.90"));
        QCOMPARE(lines.at(2).at(0).value<NodeId>(), NodeId("spare"));
        QCOMPARE(lines.at(2).at(1).toString(), QString());
        QCOMPARE(lines.at(3).at(0).value<NodeId>(), NodeId("a"));
        panel.showStoredRun(nullptr);
        QCOMPARE(panel.runLine(), QString()); // no live run yet
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
