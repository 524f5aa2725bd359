// RunSummaryView: the figures and the chart values of the known run, exactly.
#include <QtTest>

#include "support/KnownRuns.h"

#include "timeline/RunSummaryView.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QAbstractAxis>
#include <QScatterSeries>

using namespace conclave;
using conclave::ui::RunSummaryView;

namespace {

QList<qreal> values(QBarSet* set)
{
    QList<qreal> out;
    for (int i = 0; i < set->count(); ++i)
        out << set->at(i);
    return out;
}

QBarSeries* bars(QChart* chart)
{
    for (auto* s : chart->series()) {
        if (auto* b = qobject_cast<QBarSeries*>(s))
            return b;
    }
    return nullptr;
}

} // namespace

class TestRunSummaryView : public QObject {
    Q_OBJECT

private slots:
    void figures()
    {
        RunSummaryView view;
        view.setRun(known_runs::review());
        QCOMPARE(view.figure("wall"), QString("9.30 ms"));
        QCOMPARE(view.figure("critical"), QString("9.30 ms"));
        // busy: in 100 + a 5000 + b 2900 + panel 9000 + m1 8800 + join 100 + out 100 = 26000 over 9300.
        QCOMPARE(view.analysis().parallelism, 26000.0 / 9300.0);
        QCOMPARE(view.figure("parallelism"), QString("2.80×"));
        QCOMPARE(view.figure("tokens"), QString("230 / 90"));
        QCOMPARE(view.figure("cost"), QString("$0.0220"));
        QCOMPARE(view.figure("status"), QString("ok"));
    }

    void wallVersusBusyChart()
    {
        RunSummaryView view;
        view.setRun(known_runs::review());
        auto* series = bars(view.timeChart());
        QVERIFY(series);
        QCOMPARE(series->count(), 2);
        QCOMPARE(values(series->barSets()[0]), QList<qreal>({0.1, 5.0, 2.9, 9.0, 8.9, 0.1, 0.1}));
        QCOMPARE(values(series->barSets()[1]), QList<qreal>({0.1, 5.0, 2.9, 9.0, 8.8, 0.1, 0.1}));
        auto* axis = qobject_cast<QBarCategoryAxis*>(view.timeChart()->axes(Qt::Horizontal).first());
        QCOMPARE(axis->categories(), QStringList({"in", "a", "b", "panel", "m1", "join", "out"}));
    }

    void tokensAndCostChart()
    {
        RunSummaryView view;
        view.setRun(known_runs::review());
        auto* series = bars(view.tokensChart());
        QCOMPARE(values(series->barSets()[0]), QList<qreal>({0, 100, 30, 0, 100, 0, 0}));
        QCOMPARE(values(series->barSets()[1]), QList<qreal>({0, 50, 0, 0, 40, 0, 0}));
        QScatterSeries* cost = nullptr;
        for (auto* s : view.tokensChart()->series())
            cost = cost ? cost : qobject_cast<QScatterSeries*>(s);
        QVERIFY(cost);
        QCOMPARE(cost->count(), 7);
        QCOMPARE(cost->at(1).y(), 0.01);
        QCOMPARE(cost->at(2).y(), 0.002);
        // A marker on each agent's category, no line across them.
        QCOMPARE(cost->at(2).x(), 2.0);
        for (auto* s : view.tokensChart()->series())
            QVERIFY(s->type() != QAbstractSeries::SeriesTypeLine);
    }

    void chartsFollowTheTheme();

    void settingAnotherRunReplacesTheCharts()
    {
        RunSummaryView view;
        view.setRun(known_runs::review());
        view.setRun(known_runs::review("run-b", 2));
        QCOMPARE(view.timeChart()->series().size(), 1);
        QCOMPARE(view.tokensChart()->series().size(), 2);
        QCOMPARE(view.figure("wall"), QString("18.6 ms"));
    }
};

// The charts follow the theme, also when it changes after they were drawn.
void TestRunSummaryView::chartsFollowTheTheme()
{
    RunSummaryView view;
    view.setRun(known_runs::review());
    QPalette dark = view.palette();
    dark.setColor(QPalette::Base, QColor(0x1e, 0x22, 0x28));
    dark.setColor(QPalette::Text, QColor(0xe6, 0xe6, 0xe6));
    view.setPalette(dark);
    for (QChart* chart : {view.timeChart(), view.tokensChart()}) {
        QCOMPARE(chart->backgroundBrush().color().name(), QString("#1e2228"));
        QCOMPARE(chart->titleBrush().color().name(), QString("#e6e6e6"));
        for (auto* axis : chart->axes())
            QCOMPARE(axis->labelsColor().name(), QString("#e6e6e6"));
    }
    view.setRun(known_runs::review()); // rebuilt axes are styled too
    for (auto* axis : view.tokensChart()->axes())
        QCOMPARE(axis->labelsColor().name(), QString("#e6e6e6"));
}

QTEST_MAIN(TestRunSummaryView)
#include "tst_runsummaryview.moc"
