// LatencyBoxPlot: per-agent quartiles over several runs, exactly, and the
// boxes reaching the chart; the last N runs of a team read from a store.
#include <QtTest>

#include "support/KnownRuns.h"
#include "support/QtStrings.h"

#include "timeline/LatencyBoxPlot.h"

#include "conclave/io/TeamJson.h"
#include "conclave/model/Team.h"
#include "conclave/store/RunStore.h"

#include <QBoxPlotSeries>
#include <QBoxSet>
#include <QChart>

using namespace conclave;
using conclave::ui::LatencyBoxPlot;

class TestLatencyBoxPlot : public QObject {
    Q_OBJECT

private slots:
    void quantiles()
    {
        const std::vector<double> v = {1, 2, 3, 4, 10};
        QCOMPARE(LatencyBoxPlot::quantile(v, 0), 1.0);
        QCOMPARE(LatencyBoxPlot::quantile(v, 0.25), 2.0);
        QCOMPARE(LatencyBoxPlot::quantile(v, 0.5), 3.0);
        QCOMPARE(LatencyBoxPlot::quantile(v, 0.75), 4.0);
        QCOMPARE(LatencyBoxPlot::quantile(v, 1), 10.0);
        QCOMPARE(LatencyBoxPlot::quantile({1, 2}, 0.5), 1.5);
        QCOMPARE(LatencyBoxPlot::quantile({}, 0.5), 0.0);
    }

    void distributionPerAgent()
    {
        // The same run at 1x, 2x, 3x and 4x: a's latency is 5, 10, 15, 20 ms.
        std::vector<StoredRun> runs;
        for (int k = 1; k <= 4; ++k)
            runs.push_back(known_runs::review("r", k));
        const auto boxes = LatencyBoxPlot::distribution(runs);
        QStringList nodes;
        for (const auto& b : boxes)
            nodes << q(b.node.str());
        QCOMPARE(nodes, QStringList({"in", "a", "b", "panel", "m1", "join", "out"}));  // spare never ran
        const auto& a = boxes[1];
        QCOMPARE(a.samples, 4);
        QCOMPARE(a.min, 5.0);
        QCOMPARE(a.q1, 8.75);
        QCOMPARE(a.median, 12.5);
        QCOMPARE(a.q3, 16.25);
        QCOMPARE(a.max, 20.0);
    }

    void boxesReachTheChart()
    {
        std::vector<StoredRun> runs;
        for (int k = 1; k <= 3; ++k)
            runs.push_back(known_runs::review("r", k));
        LatencyBoxPlot plot;
        plot.setRuns(runs);
        QCOMPARE(plot.chart()->series().size(), 1);
        auto* series = qobject_cast<QBoxPlotSeries*>(plot.chart()->series().first());
        QVERIFY(series);
        QCOMPARE(series->count(), 7);
        QBoxSet* a = series->boxSets()[1];
        QCOMPARE(a->label(), QString("a"));
        QCOMPARE(a->at(QBoxSet::Median), 10.0);
        QCOMPARE(a->at(QBoxSet::UpperExtreme), 15.0);
        QCOMPARE(plot.chart()->title(), QString("Latency per agent over 3 runs (ms)"));
    }

    void lastRunsOfATeamFromTheStore()
    {
        QTemporaryDir dir;
        auto opened = RunStore::open(dir.filePath("runs.sqlite").toStdString());
        QVERIFY2(opened.store, opened.error.c_str());
        std::string error;
        const Team team = *teamFromJsonText(known_runs::kTeam).team;
        for (int i = 0; i < 3; ++i) {
            auto recorder = opened.store->record(team, error);
            QVERIFY(recorder);
            recorder->runStarted("q", 1);
            for (const auto& s : known_runs::review("x", i + 1).spans) {
                recorder->spanStarted(s);
                recorder->spanFinished(s);
            }
            RunResult result;
            result.status = RunStatus::Ok;
            result.wallUs = 9300 * (i + 1);
            recorder->runFinished(result);
            QCOMPARE(recorder->waitUntilStored(), std::string());
        }
        auto reader = opened.store->reader(error);
        QVERIFY(reader);
        const auto runs = LatencyBoxPlot::lastRuns(*reader, "review", 2, error);
        QCOMPARE(int(runs.size()), 2);
        QCOMPARE(runs[0].summary.wallUs, int64_t(27900));  // newest first
        QVERIFY(LatencyBoxPlot::lastRuns(*reader, "another team", 2, error).empty());
    }
};

QTEST_MAIN(TestLatencyBoxPlot)
#include "tst_latencyboxplot.moc"
