// LatencyDistribution: per-agent five-number summaries over several known
// runs, exactly, in order, and agents that did not run in some of them.
#include <QtTest>

#include "support/KnownRuns.h"
#include "support/QtStrings.h"

#include "conclave/analysis/LatencyDistribution.h"

#include <algorithm>

using namespace conclave;

namespace {

// The same run at 1x, 2x, 3x and 4x: an agent of wall time w has samples w, 2w, 3w, 4w.
std::vector<StoredRun> scaledRuns()
{
    std::vector<StoredRun> runs;
    for (int k = 1; k <= 4; ++k)
        runs.push_back(known_runs::review("r", k));
    return runs;
}

const AgentLatency* find(const std::vector<AgentLatency>& agents, const char* node)
{
    const auto it = std::find_if(agents.begin(), agents.end(), [&](const auto& a) { return a.node == NodeId(node); });
    return it == agents.end() ? nullptr : &*it;
}

} // namespace

class TestLatencyDistribution : public QObject {
    Q_OBJECT

private slots:
    void agentsInOrder()
    {
        QStringList nodes;
        for (const auto& a : LatencyDistribution::perAgent(scaledRuns()))
            nodes << q(a.node.str());
        QCOMPARE(nodes, QStringList({"in", "a", "b", "panel", "m1", "join", "out"})); // spare never ran
        QVERIFY(LatencyDistribution::perAgent({}).empty());
    }

    void fiveNumbers_data()
    {
        QTest::addColumn<QString>("node");
        QTest::addColumn<int>("samples");
        QTest::addColumn<double>("min");
        QTest::addColumn<double>("q1");
        QTest::addColumn<double>("median");
        QTest::addColumn<double>("q3");
        QTest::addColumn<double>("max");
        // Quartiles of w, 2w, 3w, 4w: h = 0.75, 1.5, 2.25 → 1.75w, 2.5w, 3.25w.
        QTest::newRow("a: 5 ms") << "a" << 4 << 5.0 << 8.75 << 12.5 << 16.25 << 20.0;
        QTest::newRow("panel: 9 ms") << "panel" << 4 << 9.0 << 15.75 << 22.5 << 29.25 << 36.0;
        QTest::newRow("b: 2.9 ms") << "b" << 4 << 2.9 << 5.075 << 7.25 << 9.425 << 11.6;
        QTest::newRow("in: 0.1 ms") << "in" << 4 << 0.1 << 0.175 << 0.25 << 0.325 << 0.4;
    }

    void fiveNumbers()
    {
        QFETCH(QString, node);
        QFETCH(int, samples);
        QFETCH(double, min);
        QFETCH(double, q1);
        QFETCH(double, median);
        QFETCH(double, q3);
        QFETCH(double, max);
        const auto agents = LatencyDistribution::perAgent(scaledRuns());
        const auto* a = find(agents, node.toUtf8().constData());
        QVERIFY(a);
        QCOMPARE(a->samples, samples);
        QCOMPARE(a->min, min);
        QCOMPARE(a->q1, q1);
        QCOMPARE(a->median, median);
        QCOMPARE(a->q3, q3);
        QCOMPARE(a->max, max);
    }

    void anAgentThatDidNotRunGivesNoSample()
    {
        auto runs = scaledRuns();
        auto& spans = runs[1].spans; // b did not run at 2x
        std::erase_if(spans, [](const Span& s) { return s.node == NodeId("b"); });
        const auto agents = LatencyDistribution::perAgent(runs);
        const auto* b = find(agents, "b");
        QVERIFY(b);
        QCOMPARE(b->samples, 3);
        QCOMPARE(b->min, 2.9);
        QCOMPARE(b->median, 8.7);
        QCOMPARE(b->max, 11.6);
    }

    // Trial rows of two designs: design 1's agents only, in first-met order,
    // each call attempt one sample; an agent that did not run in a trial gives
    // none there, and one that never called a model (m, a vote) is left out.
    void overOneDesignsTrials()
    {
        auto trial = [](int design, std::vector<TrialAgent> agents) {
            TrialRecord t;
            t.design = design;
            t.agents = std::move(agents);
            return t;
        };
        const std::vector<TrialRecord> trials = {
            trial(0, {{"x", true, 0, 99000, true, {99000}}}),
            // e retried here: two attempts, 4 and 6 ms, within its 10 ms of busy time.
            trial(1, {{"r", false, 0, 2000, true, {2000}},
                      {"e", true, 0, 10000, true, {4000, 6000}},
                      {"m", true, 0, 1000, true, {}}}),
            trial(1, {{"r", false, 0, 4000, true, {4000}},
                      {"e", true, 0, 0, false, {}},
                      {"f", true, 0, 6000, true, {6000}}}),
            trial(1, {{"r", false, 0, 6000, true, {6000}}, {"e", true, 0, 30000, true, {30000}}}),
            trial(1, {{"r", false, 0, 8000, true, {8000}}, {"e", true, 0, 20000, true, {20000}}}),
        };
        const auto agents = LatencyDistribution::perAgent(trials, 1);
        QStringList nodes;
        for (const auto& a : agents)
            nodes << q(a.node.str());
        QCOMPARE(nodes, QStringList({"r", "e", "f"}));
        // r: 2, 4, 6, 8 ms → quartiles at h = 0.75, 1.5, 2.25.
        QCOMPARE(agents[0].samples, 4);
        QCOMPARE(agents[0].min, 2.0);
        QCOMPARE(agents[0].q1, 3.5);
        QCOMPARE(agents[0].median, 5.0);
        QCOMPARE(agents[0].q3, 6.5);
        QCOMPARE(agents[0].max, 8.0);
        // e: attempts of 4, 6, 30, 20 ms (none in the second trial) → sorted 4, 6, 20, 30:
        // q1 = 4 + 0.75·2 = 5.5, median = 6 + 0.5·14 = 13, q3 = 20 + 0.25·10 = 22.5.
        QCOMPARE(agents[1].samples, 4);
        QCOMPARE(agents[1].min, 4.0);
        QCOMPARE(agents[1].q1, 5.5);
        QCOMPARE(agents[1].median, 13.0);
        QCOMPARE(agents[1].q3, 22.5);
        QCOMPARE(agents[1].max, 30.0);
        QCOMPARE(agents[2].samples, 1);
        QCOMPARE(agents[2].median, 6.0);
        QVERIFY(LatencyDistribution::perAgent(trials, 2).empty());
    }
};

QTEST_GUILESS_MAIN(TestLatencyDistribution)
#include "tst_latencydistribution.moc"
