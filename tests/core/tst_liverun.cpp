// LiveRun: a run's events folded into the StoredRun a timeline reads while the
// run goes — open spans reach up to now, totals grow as attempts end — and,
// once it has finished, the same spans, nodes, totals and critical path as
// the run store holds.
#include <QTemporaryDir>
#include <QtTest>

#include "support/QtStrings.h"

#undef emit

#include "conclave/io/TeamJson.h"
#include "conclave/session/Engine.h"
#include "conclave/session/RecordedStart.h"
#include "conclave/store/LiveRun.h"
#include "conclave/store/RunQueries.h"
#include "conclave/store/RunStore.h"

#include <fstream>
#include <map>

using namespace conclave;

namespace {

Team chain()
{
    auto loaded = teamFromJsonText(R"({"conclave": 1, "name": "chain",
        "backends": {"local": {"kind": "local-moe"}}, "defaults": {"backend": "local"},
        "nodes": [{"id": "in", "kind": "input"}, {"id": "e", "kind": "expert", "model": "local/tiny-1b"},
                  {"id": "out", "kind": "output"}],
        "edges": [{"from": "in", "to": "e"}, {"from": "e", "to": "out"}]})");
    return loaded.team ? *loaded.team : Team{};
}

Span span(SpanId id, SpanId parent, const char* node, SpanKind kind, int64_t startUs, int64_t endUs = -1,
          Status status = Status::Running)
{
    Span s;
    s.id = id;
    s.parent = parent;
    s.node = NodeId(node);
    s.kind = kind;
    s.startUs = startUs;
    s.endUs = endUs;
    s.status = status;
    return s;
}

// "id:node:start-end:status" per span.
QStringList describe(const std::vector<Span>& spans)
{
    QStringList out;
    for (const auto& s : spans)
        out << QStringLiteral("%1:%2:%3-%4:%5")
                   .arg(s.id)
                   .arg(q(s.node.str()))
                   .arg(s.startUs)
                   .arg(s.endUs)
                   .arg(q(std::string(toString(s.status))));
    return out;
}

// Takes the live run's snapshot just before it hears that the run finished.
class BeforeTheEnd : public RunObserver {
public:
    explicit BeforeTheEnd(const LiveRun& live) : m_live(live) {}
    void runFinished(const RunResult& result) override { seen = m_live.snapshot(result.wallUs); }
    StoredRun seen;

private:
    const LiveRun& m_live;
};

std::optional<Team> example(const char* name)
{
    std::ifstream in(std::string(CONCLAVE_RESOURCES "/examples/") + name);
    const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    auto loaded = teamFromJsonText(text);
    return loaded.team ? std::optional<Team>(*loaded.team) : std::nullopt;
}

} // namespace

class TestLiveRun : public QObject {
    Q_OBJECT

private slots:
    void beforeAnyEventItIsTheTeamAndNothingElse()
    {
        const Team team = chain();
        const LiveRun live(RunId("r1"), team);
        const StoredRun s = live.snapshot(250);
        QCOMPARE(q(s.summary.id.str()), QString("r1"));
        QCOMPARE(q(s.summary.teamName), QString("chain"));
        QVERIFY(s.summary.status == RunStatus::Running);
        QCOMPARE(s.summary.wallUs, int64_t(250));
        QCOMPARE(q(s.teamJson), q(teamToJsonText(team)));
        QVERIFY(s.spans.empty());
        QVERIFY(s.nodes.empty());
        QVERIFY(!live.finished());
    }

    void openSpansReachUpToNowAndTotalsGrowAsAttemptsEnd()
    {
        LiveRun live(RunId("r1"), chain());
        live.runStarted("hello", 7, ClockKind::Real);
        live.nodeQueued(NodeId("in"), 0);
        live.spanStarted(span(1, 0, "in", SpanKind::Node, 0));
        StoredRun s = live.snapshot(40);
        QCOMPARE(q(s.summary.input), QString("hello"));
        QCOMPARE(s.summary.seed, uint64_t(7));
        QCOMPARE(describe(s.spans), QStringList{"1:in:0--1:running"});
        QCOMPARE(s.summary.wallUs, int64_t(40));

        live.spanFinished(span(1, 0, "in", SpanKind::Node, 0, 100, Status::Ok));
        NodeResult ok;
        ok.status = Status::Ok;
        live.nodeFinished(NodeId("in"), ok, 100);
        live.nodeQueued(NodeId("e"), 100);
        live.spanStarted(span(2, 0, "e", SpanKind::Node, 120));
        live.spanStarted(span(3, 2, "e", SpanKind::Attempt, 130));
        s = live.snapshot(500);
        QCOMPARE(describe(s.spans), (QStringList{"1:in:0-100:ok", "2:e:120--1:running", "3:e:130--1:running"}));
        QCOMPARE(s.summary.wallUs, int64_t(500));
        QCOMPARE(s.summary.calls, 1);
        QCOMPARE(s.summary.tokensOut, int64_t(0));
        QCOMPARE(s.nodes.size(), size_t(2));
        QCOMPARE(q(s.nodes[0].node.str()), QString("in"));
        QVERIFY(s.nodes[0].result.status == Status::Ok);
        QCOMPARE(s.nodes[0].finishedUs, int64_t(100));
        QCOMPARE(q(s.nodes[1].node.str()), QString("e"));
        QVERIFY(s.nodes[1].result.status == Status::Queued);
        QCOMPARE(s.nodes[1].queuedUs, int64_t(100));

        // A time before the latest event is raised to it.
        QCOMPARE(live.snapshot(10).summary.wallUs, int64_t(130));
        QCOMPARE(live.lastEventUs(), int64_t(130));

        Span attempt = span(3, 2, "e", SpanKind::Attempt, 130, 900, Status::Failed);
        attempt.tokensIn = 10;
        attempt.tokensOut = 20;
        attempt.costUsd = 0.25;
        live.spanFinished(attempt);
        live.spanStarted(span(4, 2, "e", SpanKind::Attempt, 950));
        s = live.snapshot(1000);
        QCOMPARE(s.summary.calls, 2);
        QCOMPARE(s.summary.tokensIn, int64_t(10));
        QCOMPARE(s.summary.tokensOut, int64_t(20));
        QCOMPARE(s.summary.costUsd, 0.25);
        QCOMPARE(describe(s.spans).last(), QString("4:e:950--1:running"));
    }

    void onceFinishedItIsTheResultWhateverTheTime()
    {
        LiveRun live(RunId("r1"), chain());
        live.spanStarted(span(1, 0, "in", SpanKind::Node, 0));
        RunResult result;
        result.status = RunStatus::Partial;
        result.wallUs = 2000;
        result.tokensIn = 3;
        result.calls = 4;
        result.output.answer = "42";
        result.criticalPath = {{NodeId("in"), NodeId("e"), NodeId("out")}, 1500};
        result.clock = ClockKind::Virtual;
        result.spans = {span(1, 0, "in", SpanKind::Node, 0, 100, Status::Ok),
                        span(2, 0, "e", SpanKind::Node, 100, 1900, Status::Failed)};
        live.runFinished(result);
        QVERIFY(live.finished());
        const StoredRun s = live.snapshot(50);
        QVERIFY(s.summary.status == RunStatus::Partial);
        QCOMPARE(s.summary.wallUs, int64_t(2000));
        QCOMPARE(s.summary.tokensIn, int64_t(3));
        QCOMPARE(s.summary.calls, 4);
        QCOMPARE(q(s.summary.answer), QString("42"));
        QCOMPARE(s.summary.criticalPathUs, int64_t(1500));
        QVERIFY(s.summary.clock == ClockKind::Virtual);
        QCOMPARE(q(s.output.answer), QString("42"));
        QCOMPARE(s.criticalPath, (std::vector<NodeId>{NodeId("in"), NodeId("e"), NodeId("out")}));
        QCOMPARE(describe(s.spans), (QStringList{"1:in:0-100:ok", "2:e:100-1900:failed"}));
    }

    // Fed by a real run next to the recorder: at the end it holds what the store holds.
    void finishedItHoldsWhatTheStoreHolds_data()
    {
        QTest::addColumn<QString>("team");
        QTest::addColumn<QString>("input");
        QTest::newRow("keyword vote") << "keyword-vote.team.json"
                                      << "Calculate 323 + 460.";
        QTest::newRow("triage") << "triage.team.json"
                                << "Calculate 323 + 460. And what is the capital city of France?";
    }

    void finishedItHoldsWhatTheStoreHolds()
    {
        QFETCH(QString, team);
        QFETCH(QString, input);
        QTemporaryDir dir;
        std::vector<std::string> errors;
        Engine engine(EngineResources::load(CONCLAVE_RESOURCES, errors));
        QVERIFY(errors.empty());
        auto opened = RunStore::open(dir.filePath("runs.sqlite").toStdString());
        QVERIFY(opened.store);
        const auto loaded = example(team.toUtf8().constData());
        QVERIFY(loaded);
        const auto prepared = engine.prepare(*loaded);
        QVERIFY(prepared.team);
        std::string error;
        auto recorder = opened.store->record(prepared.team->plan->team(), error);
        QVERIFY(recorder);
        LiveRun live(recorder->id(), prepared.team->plan->team());
        BeforeTheEnd before(live);
        auto started = startRecorded(engine, std::move(recorder), *prepared.team, input.toStdString(),
                                     Engine::StartOptions{42, {&before, &live}, ClockRequest::Virtual, {}, {}});
        QVERIFY(started.run);
        const RunResult result = started.run->wait();
        QCOMPARE(q(started.recorder->waitUntilStored()), QString());
        const auto reader = opened.store->reader(error);
        QVERIFY(reader);
        const auto stored = reader->load(live.id(), false, error);
        QVERIFY2(stored, error.c_str());

        // Before it heard the end: the spans the result holds, and the totals counted the same way.
        QCOMPARE(describe(before.seen.spans), describe(stored->spans));
        QCOMPARE(before.seen.summary.calls, result.calls);
        QCOMPARE(before.seen.summary.tokensIn, result.tokensIn);
        QCOMPARE(before.seen.summary.tokensOut, result.tokensOut);
        QCOMPARE(before.seen.summary.costUsd, result.costUsd);
        QVERIFY(before.seen.summary.status == RunStatus::Running);
        QVERIFY(before.seen.criticalPath.empty());

        const StoredRun s = live.snapshot(0);
        QVERIFY(s.spans == stored->spans);
        QCOMPARE(q(s.teamJson), q(stored->teamJson));
        QCOMPARE(s.criticalPath, stored->criticalPath);
        QVERIFY(!s.criticalPath.empty());
        QVERIFY(s.summary.status == stored->summary.status);
        QCOMPARE(q(s.summary.input), q(stored->summary.input));
        QCOMPARE(s.summary.seed, stored->summary.seed);
        QVERIFY(s.summary.clock == stored->summary.clock);
        QCOMPARE(s.summary.wallUs, stored->summary.wallUs);
        QCOMPARE(s.summary.calls, stored->summary.calls);
        QCOMPARE(s.summary.tokensIn, stored->summary.tokensIn);
        QCOMPARE(s.summary.tokensOut, stored->summary.tokensOut);
        QCOMPARE(s.summary.costUsd, stored->summary.costUsd);
        QCOMPARE(s.summary.criticalPathUs, stored->summary.criticalPathUs);
        QCOMPARE(q(s.summary.answer), q(stored->summary.answer));
        QCOMPARE(q(s.output.answer), q(stored->output.answer));
        std::map<NodeId, StoredNode> nodes;
        for (const auto& n : stored->nodes)
            nodes[n.node] = n;
        QCOMPARE(s.nodes.size(), nodes.size());
        for (const auto& n : s.nodes) {
            QVERIFY2(nodes.contains(n.node), n.node.str().c_str());
            QVERIFY2(nodes[n.node].result == n.result, n.node.str().c_str());
            QCOMPARE(n.queuedUs, nodes[n.node].queuedUs);
            QCOMPARE(n.finishedUs, nodes[n.node].finishedUs);
        }
    }
};

QTEST_GUILESS_MAIN(TestLiveRun)
#include "tst_liverun.moc"
