// RunAnalysis: per-agent rows, parallelism, and branches that could have run
// in parallel and ran one after another (ParallelismAudit), from hand-made stored runs.
#include <QtTest>

#include "support/QtStrings.h"

#include "conclave/analysis/RunAnalysis.h"

using namespace conclave;

namespace {

const char* const kTeam = R"json({"conclave": 1, "name": "two experts",
  "backends": {"local": {"kind": "local-moe"}},
  "defaults": {"backend": "local"},
  "nodes": [
    {"id": "in", "kind": "input"},
    {"id": "a", "kind": "expert", "model": "local/tiny-1b"},
    {"id": "b", "kind": "expert", "model": "local/tiny-1b"},
    {"id": "join", "kind": "aggregator", "strategy": "concat"},
    {"id": "out", "kind": "output"}],
  "edges": [{"from": "in", "to": "a"}, {"from": "in", "to": "b"}, {"from": "a", "to": "join"},
            {"from": "b", "to": "join"}, {"from": "join", "to": "out"}]})json";

Span span(SpanId id, SpanId parent, const char* node, SpanKind kind, int64_t start, int64_t end)
{
    Span s;
    s.id = id;
    s.parent = parent;
    s.node = NodeId(node);
    s.kind = kind;
    s.startUs = start;
    s.endUs = end;
    s.status = Status::Ok;
    if (kind == SpanKind::Attempt) {
        s.attempt = 1;
        s.tokensIn = 10;
        s.tokensOut = 5;
        s.costUsd = 0.5;
        s.ttftUs = 100;
    }
    return s;
}

// a and b each take 1000 µs of calls; `bStart` places b after or alongside a.
StoredRun twoExperts(int64_t bStart)
{
    StoredRun run;
    run.teamJson = kTeam;
    const int64_t end = std::max<int64_t>(1000, bStart + 1000) + 10;
    run.summary.wallUs = end + 10;
    run.spans = {span(1, 0, "in", SpanKind::Node, 0, 5),
                 span(2, 0, "a", SpanKind::Node, 5, 1005),
                 span(3, 2, "a", SpanKind::Attempt, 5, 1005),
                 span(4, 0, "b", SpanKind::Node, bStart, bStart + 1000),
                 span(5, 4, "b", SpanKind::Attempt, bStart, bStart + 500),
                 span(6, 4, "b", SpanKind::Attempt, bStart + 500, bStart + 1000),
                 span(7, 0, "join", SpanKind::Node, end - 5, end),
                 span(8, 0, "out", SpanKind::Node, end, end + 10)};
    run.criticalPath = {NodeId("in"), NodeId("b"), NodeId("join"), NodeId("out")};
    return run;
}

} // namespace

class TestRunAnalysis : public QObject {
    Q_OBJECT

private slots:
    void agentRows()
    {
        const auto a = RunAnalysis::of(twoExperts(1005));
        QCOMPARE(a.agents.size(), size_t(5));
        QCOMPARE(q(a.agents[1].node.str()), QString("a"));
        QCOMPARE(q(a.agents[1].kind), QString("expert"));
        QCOMPARE(a.agents[1].calls, 1);
        QCOMPARE(a.agents[1].wallUs, int64_t(1000));
        QCOMPARE(a.agents[1].busyUs, int64_t(1000));
        QCOMPARE(a.agents[1].ttftUs, int64_t(100));
        QCOMPARE(a.agents[2].calls, 2);
        QCOMPARE(a.agents[2].tokensIn, int64_t(20));
        QCOMPARE(a.agents[2].tokensOut, int64_t(10));
        QCOMPARE(a.agents[2].costUsd, 1.0);
        QVERIFY(a.agents[2].status == Status::Ok);
        QCOMPARE(a.agents[0].busyUs, int64_t(5)); // no calls: its node span counts
        QCOMPARE(a.criticalPath.size(), size_t(4));
    }

    void serialBranchesAreReported()
    {
        const auto serial = RunAnalysis::of(twoExperts(1005));
        QCOMPARE(serial.serialised.size(), size_t(1));
        QCOMPARE(serial.serialised[0].nodes.size(), size_t(2));
        QCOMPARE(q(serial.serialised[0].nodes[0].str()), QString("a"));
        QCOMPARE(q(serial.serialised[0].nodes[1].str()), QString("b"));
        // Both ready from 5 µs (the input's end) until a's end at 1005: 1 ms in common; a local backend has no limit.
        QCOMPARE(q(serial.serialised[0].why),
                 QString("no backend limit explains it (the engine's workers may have been busy)"));
        // in 5 + a 1000 + b 1000 + join 5 + out 10, over a wall of 2025.
        QCOMPARE(serial.parallelism, 2020.0 / 2025.0);

        const auto parallel = RunAnalysis::of(twoExperts(5));
        QCOMPARE(parallel.serialised.size(), size_t(0));
        QCOMPARE(parallel.parallelism, 2020.0 / 1025.0);
    }

    void unknownTeamStillGivesRows()
    {
        auto run = twoExperts(5);
        run.teamJson = "not json";
        const auto a = RunAnalysis::of(run);
        QCOMPARE(a.agents.size(), size_t(5));
        QVERIFY(a.serialised.empty());
    }
};

QTEST_GUILESS_MAIN(TestRunAnalysis)
#include "tst_runanalysis.moc"
