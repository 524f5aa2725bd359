// ReplayOutputs: what each node of a hand-made run had produced by an instant —
// its ReplayStates status, the text of its spans that had ended (never that of
// a span in progress), its result only once it had finished — and, from the
// run's end on, exactly its final output (what the output dock shows).
#include <QtTest>

#include "support/KnownRuns.h"
#include "support/QtStrings.h"

#include "conclave/analysis/ReplayOutputs.h"

using namespace conclave;
using known_runs::span; // the one span builder of the tests

namespace {

StoredNode result(const char* node, Status status, const char* text, const char* answer, double confidence,
                  int64_t finishedUs)
{
    StoredNode n;
    n.node = NodeId(node);
    n.result.status = status;
    n.result.text = text;
    n.result.answer = answer;
    n.result.confidence = confidence;
    n.finishedUs = finishedUs;
    return n;
}

// in -> math, capital, spare -> join -> late (the output).
const char* const kTeam =
    "{\"conclave\": 1, \"name\": \"sums\","
    " \"backends\": {\"local\": {\"kind\": \"local-moe\"}}, \"defaults\": {\"backend\": \"local\"},"
    " \"nodes\": ["
    "  {\"id\": \"in\", \"kind\": \"input\"},"
    "  {\"id\": \"math\", \"kind\": \"expert\", \"model\": \"local/tiny-1b\"},"
    "  {\"id\": \"capital\", \"kind\": \"expert\", \"model\": \"local/tiny-1b\"},"
    "  {\"id\": \"spare\", \"kind\": \"expert\", \"model\": \"local/tiny-1b\"},"
    "  {\"id\": \"join\", \"kind\": \"aggregator\", \"strategy\": \"concat\"},"
    "  {\"id\": \"late\", \"kind\": \"output\"}],"
    " \"edges\": [{\"from\": \"in\", \"to\": \"math\"}, {\"from\": \"in\", \"to\": \"capital\"},"
    "  {\"from\": \"in\", \"to\": \"spare\"}, {\"from\": \"math\", \"to\": \"join\"},"
    "  {\"from\": \"capital\", \"to\": \"join\"}, {\"from\": \"spare\", \"to\": \"join\"},"
    "  {\"from\": \"join\", \"to\": \"late\"}]}";

// in (0–0.1 s); math retried: a failed attempt to 1.2 s, then an ok one to 3 s;
// capital to 2.5 s with no recorded finish; spare skipped at 0.1 s; join
// (3–3.2 s) stored no result; late's span never ended. The run ends at 3.3 s.
StoredRun run()
{
    StoredRun r;
    r.teamJson = kTeam;
    r.summary.id = RunId("1a2b3c4d5e6f");
    r.summary.wallUs = 3'300'000;
    r.spans = {span(1, 0, "in", SpanKind::Node, 0, 100'000),
               span(2, 0, "math", SpanKind::Node, 100'000, 3'000'000),
               span(3, 2, "math", SpanKind::Attempt, 100'000, 1'200'000, Status::Failed),
               span(4, 2, "math", SpanKind::Attempt, 1'200'000, 3'000'000),
               span(5, 0, "capital", SpanKind::Node, 100'000, 2'500'000),
               span(6, 5, "capital", SpanKind::Attempt, 100'000, 2'500'000),
               span(7, 0, "join", SpanKind::Node, 3'000'000, 3'200'000),
               span(8, 0, "late", SpanKind::Node, 3'100'000, -1, Status::Running)};
    r.spans[2].error = "HTTP 500";
    r.texts = {{SpanId(3), "323 + 4"},
               {SpanId(4), "The sum is 783."},
               {SpanId(6), "Paris."},
               {SpanId(7), "783\n"},
               {SpanId(8), "partial"}};
    StoredNode math = result("math", Status::Ok, "The sum is 783.", "783", 0.91, 3'000'000);
    math.result.tokensIn = 120;
    math.result.tokensOut = 40;
    math.result.costUsd = 0.0042;
    r.nodes = {result("in", Status::Ok, "", "", 0, 100'000), math,
               result("capital", Status::Ok, "The capital of France is Paris.", "paris", 0.8, -1),
               result("spare", Status::Skipped, "", "", 0, 100'000)};
    return r;
}

// "status · since · answer": since and answer "–" when none.
QString describe(const NodeOutput& out)
{
    return QStringList{out.status ? q(toString(*out.status)) : QString("–"),
                       out.inProgress() ? QString::number(out.runningSinceUs) : QString("–"),
                       out.result ? q(out.result->answer) : QString("–")}
        .join(" · ");
}

} // namespace

class TestReplayOutputs : public QObject {
    Q_OBJECT

private slots:
    void atAnInstant_data()
    {
        QTest::addColumn<QString>("node");
        QTest::addColumn<qint64>("at");
        QTest::addColumn<QString>("output");
        QTest::addColumn<QString>("text");
        QTest::newRow("before its start") << "math" << qint64(50'000) << "queued · – · –"
                                          << "";
        QTest::newRow("the first instant of a span") << "in" << qint64(0) << "running · 0 · –"
                                                     << "";
        QTest::newRow("finished at its span's end") << "in" << qint64(100'000) << "ok · – · "
                                                    << "";
        QTest::newRow("mid first attempt: nothing yet") << "math" << qint64(600'000) << "running · 100000 · –"
                                                        << "";
        QTest::newRow("the failed attempt's text once it ended")
            << "math" << qint64(1'200'000) << "running · 100000 · –"
            << "323 + 4";
        QTest::newRow("mid retry: not the retry's text") << "math" << qint64(2'999'999) << "running · 100000 · –"
                                                         << "323 + 4";
        QTest::newRow("finished: its result and its result's text") << "math" << qint64(3'000'000) << "ok · – · 783"
                                                                    << "The sum is 783.";
        QTest::newRow("no recorded finish: running to its span's end")
            << "capital" << qint64(2'499'999) << "running · 100000 · –"
            << "";
        QTest::newRow("no recorded finish: finished at its span's end")
            << "capital" << qint64(2'500'000) << "ok · – · paris"
            << "The capital of France is Paris.";
        QTest::newRow("skipped: queued until its finish") << "spare" << qint64(99'999) << "queued · – · –"
                                                          << "";
        QTest::newRow("skipped from its finish") << "spare" << qint64(100'000) << "skipped · – · "
                                                 << "";
        QTest::newRow("no result: running") << "join" << qint64(3'100'000) << "running · 3000000 · –"
                                            << "";
        QTest::newRow("no result: its span's text, no figures before the end")
            << "join" << qint64(3'200'000) << "ok · – · –"
            << "783\n";
        QTest::newRow("a span that never ended: its text stays hidden")
            << "late" << qint64(3'299'999) << "running · 3100000 · –"
            << "";
        QTest::newRow("the end: the never-ended span as stored, its text")
            << "late" << qint64(3'300'000) << "running · – · –"
            << "partial";
        QTest::newRow("a node the run does not name") << "nobody" << qint64(1'000'000) << "– · – · –"
                                                      << "";
    }

    void atAnInstant()
    {
        QFETCH(QString, node);
        QFETCH(qint64, at);
        QFETCH(QString, output);
        QFETCH(QString, text);
        const ReplayOutputs outputs(run());
        const NodeOutput out = outputs.at(NodeId(node.toStdString()), at);
        QCOMPARE(describe(out), output);
        QCOMPARE(q(out.text), text);
    }

    void theStatusIsReplayStates()
    {
        const StoredRun r = run();
        const ReplayOutputs outputs(r);
        const ReplayStates states(r);
        QCOMPARE(int(states.statesAt(0).size()), 6); // the team's nodes
        for (const char* node : {"in", "math", "capital", "spare", "join", "late"}) {
            for (int64_t at = 0; at < outputs.endUs(); at += 50'000)
                QCOMPARE(q(toString(*outputs.at(NodeId(node), at).status)),
                         q(toString(states.stateAt(NodeId(node), at))));
        }
    }

    void theFiguresOnceFinished()
    {
        const ReplayOutputs outputs(run());
        QVERIFY(!outputs.at(NodeId("math"), 2'999'999).finished());
        const NodeOutput math = outputs.at(NodeId("math"), 3'000'000);
        QVERIFY(math.finished());
        QCOMPARE(math.result->tokensIn, int64_t(120));
        QCOMPARE(math.result->tokensOut, int64_t(40));
        QCOMPARE(math.result->costUsd, 0.0042);
        QCOMPARE(math.result->confidence, 0.91);
    }

    // From the run's end on, every node's output is its final one, as the dock shows a stored run.
    void fromTheEndOnTheFinalOutput()
    {
        const StoredRun r = run();
        const ReplayOutputs outputs(r);
        QCOMPARE(outputs.endUs(), int64_t(3'300'000));
        for (const char* name : {"in", "math", "capital", "spare", "join", "late", "nobody"}) {
            const NodeId node(name);
            const NodeOutput last = outputs.finalOutput(node);
            QVERIFY2(outputs.at(node, 3'300'000) == last, name);
            QVERIFY2(outputs.at(node, 60'000'000) == last, name);
            QCOMPARE(q(last.text), last.status ? q(ReplayOutputs::storedText(r, node)) : QString());
        }
        QCOMPARE(describe(outputs.finalOutput(NodeId("math"))), QString("ok · – · 783"));
        QCOMPARE(describe(outputs.finalOutput(NodeId("join"))), QString("ok · – · –"));
        QCOMPARE(describe(outputs.finalOutput(NodeId("late"))), QString("running · – · –"));
        QCOMPARE(describe(outputs.finalOutput(NodeId("nobody"))), QString("– · – · –"));
        QCOMPARE(describe(ReplayOutputs().at(NodeId("math"), 0)), QString("– · – · –"));
    }

    void storedTextIsTheResultsElseTheSpansJoined()
    {
        StoredRun r = run();
        QCOMPARE(q(ReplayOutputs::storedText(r, NodeId("math"))), QString("The sum is 783."));
        QCOMPARE(q(ReplayOutputs::storedText(r, NodeId("in"))), QString()); // no text anywhere
        r.nodes[1].result.text.clear();
        QCOMPARE(q(ReplayOutputs::storedText(r, NodeId("math"))), QString("323 + 4\nThe sum is 783."));
        r.texts[3] = "323 + 4\n"; // a piece that ends its line gets no second break
        QCOMPARE(q(ReplayOutputs::storedText(r, NodeId("math"))), QString("323 + 4\nThe sum is 783."));
        // Before it finished the same join, over the spans that had ended.
        r.texts[SpanId(2)] = "Working";
        const ReplayOutputs outputs(r);
        QCOMPARE(q(outputs.at(NodeId("math"), 2'000'000).text), QString("323 + 4\n"));
        QCOMPARE(q(outputs.at(NodeId("math"), 3'000'000).text), QString("Working\n323 + 4\nThe sum is 783."));
    }
};

QTEST_GUILESS_MAIN(TestReplayOutputs)
#include "tst_replayoutputs.moc"
