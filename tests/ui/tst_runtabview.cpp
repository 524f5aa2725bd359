// What a run tab shows, as the window finds it: a run or a replay tab has one
// run and its timeline, a replay tab a playhead, a latency tab exports its
// chart, and anything else (or no tab) has none of these.
#include <QtTest>

#include "support/KnownRuns.h"

#include "studio/RunTabView.h"
#include "timeline/CompareView.h"
#include "timeline/LatencyBoxPlot.h"
#include "timeline/ReplayView.h"
#include "timeline/RunView.h"

#include <QChartView>

using namespace conclave;
using conclave::ui::RunTabView;

class TestRunTabView : public QObject {
    Q_OBJECT

private slots:
    void noTabShowsNothing()
    {
        const RunTabView tab = RunTabView::of(nullptr);
        QVERIFY(!tab.model);
        QVERIFY(!tab.timeline);
        QVERIFY(!tab.replay);
        QVERIFY(!tab.chart);
    }

    void aRunTab()
    {
        ui::RunView view;
        view.setRun(known_runs::review());
        const RunTabView tab = RunTabView::of(&view);
        QCOMPARE(tab.model.get(), view.timelineModel().get());
        QCOMPARE(tab.model->run().summary.id, RunId("run-a"));
        QCOMPARE(tab.timeline, view.timeline());
        QVERIFY(!tab.replay);
        QCOMPARE(tab.chart, static_cast<QWidget*>(&view));
    }

    void aReplayTab()
    {
        ui::ReplayView view;
        view.setRun(known_runs::review("run-r"));
        const RunTabView tab = RunTabView::of(&view);
        QCOMPARE(tab.model.get(), view.timelineModel().get());
        QCOMPARE(tab.model->run().summary.id, RunId("run-r"));
        QCOMPARE(tab.timeline, view.timeline());
        QCOMPARE(tab.replay, view.controller());
        QCOMPARE(tab.chart, static_cast<QWidget*>(&view));
    }

    // Two runs, two timelines: no one run to show in the output dock.
    void aCompareTab()
    {
        ui::CompareView view;
        view.setRuns(known_runs::review(), known_runs::slower());
        const RunTabView tab = RunTabView::of(&view);
        QVERIFY(!tab.model);
        QVERIFY(!tab.timeline);
        QVERIFY(!tab.replay);
        QCOMPARE(tab.chart, static_cast<QWidget*>(&view));
    }

    void aLatencyTabExportsItsChart()
    {
        ui::LatencyBoxPlot plot;
        plot.setRuns({known_runs::review(), known_runs::slower()});
        const RunTabView tab = RunTabView::of(&plot);
        QVERIFY(!tab.model);
        QVERIFY(!tab.timeline);
        QVERIFY(!tab.replay);
        QCOMPARE(tab.chart, static_cast<QWidget*>(plot.chartView()));
    }

    void anyOtherWidgetIsItsOwnChart()
    {
        QWidget widget;
        const RunTabView tab = RunTabView::of(&widget);
        QVERIFY(!tab.model);
        QVERIFY(!tab.timeline);
        QVERIFY(!tab.replay);
        QCOMPARE(tab.chart, &widget);
    }
};

QTEST_MAIN(TestRunTabView)
#include "tst_runtabview.moc"
