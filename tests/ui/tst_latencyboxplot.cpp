// LatencyBoxPlot: the per-agent boxes LatencyDistribution computes reach the
// chart (the figures themselves are tst_latencydistribution's).
#include <QtTest>

#include <QBarCategoryAxis>
#include <QValueAxis>

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
        QCOMPARE(plot.chart()->title(), QString("Latency per agent over 3 runs"));
        // Round ticks, in milliseconds below ten seconds.
        auto* y = qobject_cast<QValueAxis*>(plot.chart()->axes(Qt::Vertical).value(0));
        QVERIFY(y);
        QCOMPARE(y->titleText(), QString("ms"));
        // The longest box is m1 in run 3 (0.3 to 27.0 ms: 26.7 ms); a tenth above it is 29.4: 0 to 30 on steps of 10.
        QCOMPARE(y->tickInterval(), 10.0);
        QCOMPARE(y->max(), 30.0);
        QCOMPARE(y->labelFormat(), QString("%.0f"));
    }

    void longLatenciesAreInSecondsOnRoundTicks()
    {
        LatencyBoxPlot plot;
        plot.setBoxes({AgentLatency{NodeId("a-very-long-agent-name"), 3, 1000, 2000, 3000, 4000, 12000}}, "t");
        auto* series = qobject_cast<QBoxPlotSeries*>(plot.chart()->series().first());
        QCOMPARE(series->boxSets()[0]->at(QBoxSet::UpperExtreme), 12.0);
        QCOMPARE(series->boxSets()[0]->at(QBoxSet::Median), 3.0);
        auto* y = qobject_cast<QValueAxis*>(plot.chart()->axes(Qt::Vertical).value(0));
        QCOMPARE(y->titleText(), QString("s"));
        QCOMPARE(y->tickInterval(), 5.0);
        QCOMPARE(y->max(), 15.0);
        auto* x = qobject_cast<QBarCategoryAxis*>(plot.chart()->axes(Qt::Horizontal).value(0));
        QCOMPARE(x->categories(), QStringList{"a-very-long-a…"});
    }
};

QTEST_MAIN(TestLatencyBoxPlot)
#include "tst_latencyboxplot.moc"
