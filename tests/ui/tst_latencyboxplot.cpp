// LatencyBoxPlot: the per-agent boxes LatencyDistribution computes reach the
// chart (the figures themselves are tst_latencydistribution's).
#include <QtTest>

#include "support/KnownRuns.h"

#include "timeline/LatencyBoxPlot.h"

#include <QBoxPlotSeries>
#include <QBoxSet>
#include <QChart>

using namespace conclave;
using conclave::ui::LatencyBoxPlot;

class TestLatencyBoxPlot : public QObject {
    Q_OBJECT

private slots:
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
};

QTEST_MAIN(TestLatencyBoxPlot)
#include "tst_latencyboxplot.moc"
