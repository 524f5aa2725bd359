// A cascade's threshold swept beside its two models alone, from fixed trials
// (ExperimentReport::make): the designs table's parameter column and its
// sort, the curve chart's series, bands, hull, points and texts, the charts'
// tabs in the experiment view, and a sweep without single models, which
// shows its notes instead of a chart.
#include <QtTest>

#include "support/EngineTestKit.h"

#include "experiment/DesignsModel.h"
#include "experiment/ExperimentView.h"
#include "experiment/ParetoChart.h"
#include "experiment/SweepCurveChart.h"
#include "timeline/ThemedChartView.h"

#include "conclave/experiment/ExperimentReport.h"
#include "conclave/experiment/ReportText.h"

#include <QAreaSeries>
#include <QChart>
#include <QGraphicsSimpleTextItem>
#include <QLabel>
#include <QLineSeries>
#include <QScatterSeries>
#include <QSortFilterProxyModel>
#include <QTabBar>
#include <QTabWidget>
#include <QTableView>

using namespace conclave;
using namespace enginetest;
using conclave::ui::DesignsModel;
using conclave::ui::ExperimentView;
using conclave::ui::SweepCurveChart;

namespace {

constexpr double kWeakCost = 0.001;
constexpr double kStrongCost = 0.01;

Team built(TeamBuilder& b)
{
    std::string problems;
    auto team = b.build(problems);
    if (!team)
        qFatal("%s", problems.c_str());
    return *team;
}

Team singleTeam(const std::string& model)
{
    TeamBuilder b;
    b.expert("m", model).output("m");
    return built(b);
}

Team cascadeTeam(double threshold)
{
    TeamBuilder b;
    b.node("c", "coordinator", json{{"mode", "cascade"}, {"threshold", threshold}});
    b.expert("first", "wrong-100").expert("second", "right-100");
    b.member("c", "first").member("c", "second");
    b.edge("in", "c");
    b.output("c");
    return built(b);
}

TrialRecord trial(int design, const std::string& name, const std::string& task, bool correct, double cost,
                  std::optional<bool> escalated = std::nullopt)
{
    TrialRecord t;
    t.design = design;
    t.designName = name;
    t.task = task;
    t.seed = 1;
    t.correct = correct;
    t.costUsd = cost;
    t.wallUs = 1000;
    if (escalated)
        t.agents.push_back({"second", false, *escalated ? kStrongCost : 0, 0, *escalated, {}});
    return t;
}

const std::vector<std::pair<double, std::string>> kThresholds{{0.2, "0.2"}, {0.5, "0.5"}, {0.9, "0.9"}};

// Tasks a…d. The weak model is right on a only, the strong one on all; the
// cascade at 0.2 never escalates, at 0.5 escalates on b and c, at 0.9 always.
// With `singles`, the two models alone are designs 0 and 1, before the variants.
ExperimentReport cascadeSweep(bool singles)
{
    ExperimentSpec spec;
    if (singles) {
        spec.designs.push_back(makeDesign("weak alone", "", singleTeam("wrong-100")));
        spec.designs.push_back(makeDesign("strong alone", "", singleTeam("right-100")));
    }
    for (const auto& [value, text] : kThresholds) {
        auto d = makeDesign("cascade [c.threshold=" + text + "]", "", cascadeTeam(value));
        d.sweep = {{"c.threshold", value, text}};
        spec.designs.push_back(std::move(d));
    }
    auto tasks = TaskSet::fromJsonLines(R"({"id":"a","prompt":"1+1","answer":"2"}
{"id":"b","prompt":"2+2","answer":"4"}
{"id":"c","prompt":"3+3","answer":"6"}
{"id":"d","prompt":"4+4","answer":"8"})");
    if (!tasks.tasks)
        qFatal("the test tasks do not load");
    spec.tasksetName = "sums";
    spec.tasks = std::make_shared<const TaskSet>(std::move(*tasks.tasks));
    spec.seeds = {1};
    spec.vary = {"c.threshold=0.2,0.5,0.9"};
    ExperimentRecord record;
    record.id = spec.id();
    record.name = "sweep test";
    record.status = ExperimentStatus::Finished;
    record.specJson = spec.toJson().dump();
    record.designs = spec.designNames();
    record.taskset = "sums";
    record.plannedTrials = int64_t(spec.designs.size() * 4);
    std::vector<TrialRecord> trials;
    const int first = singles ? 2 : 0;
    for (const std::string task : {"a", "b", "c", "d"}) {
        if (singles) {
            trials.push_back(trial(0, "weak alone", task, task == "a", kWeakCost));
            trials.push_back(trial(1, "strong alone", task, true, kStrongCost));
        }
        const bool middle = task == "b" || task == "c";
        trials.push_back(trial(first, record.designs[size_t(first)], task, task == "a", kWeakCost, false));
        trials.push_back(trial(first + 1, record.designs[size_t(first + 1)], task, task == "a" || middle,
                               middle ? kWeakCost + kStrongCost : kWeakCost, middle));
        trials.push_back(
            trial(first + 2, record.designs[size_t(first + 2)], task, true, kWeakCost + kStrongCost, true));
    }
    for (auto& t : trials)
        t.experimentId = record.id;
    std::string error;
    auto report = ExperimentReport::make(record, trials, error);
    if (!report)
        qFatal("%s", error.c_str());
    return std::move(*report);
}

QString text(const QAbstractItemModel* model, int row, int column)
{
    return model->data(model->index(row, column)).toString();
}

} // namespace

class TestSweepCurveChart : public QObject {
    Q_OBJECT

private slots:
    void theReportHasACurve()
    {
        const auto report = cascadeSweep(true);
        QVERIFY(report.curve && report.curve->figures);
        QCOMPARE(report.curve->series.size(), size_t(1));
        QCOMPARE(report.curve->references.size(), size_t(2));
        QCOMPARE(report.curve->figures->curves.front().shares, (std::vector<double>{0, 0.5, 1}));
    }

    void parametersAreColumnsAfterTheName()
    {
        DesignsModel model;
        const auto report = cascadeSweep(true);
        model.setSummary(report.summary, SweepColumns::of(report.spec.designs));
        QCOMPARE(model.columnCount(), int(DesignsModel::Columns) + 1);
        QCOMPARE(model.headerData(0, Qt::Horizontal).toString(), QStringLiteral("Design"));
        QCOMPARE(model.headerData(1, Qt::Horizontal).toString(), QStringLiteral("c.threshold"));
        QCOMPARE(model.headerData(2, Qt::Horizontal).toString(), QStringLiteral("Accuracy [95% CI]"));
        QCOMPARE(model.headerData(1, Qt::Horizontal, Qt::ToolTipRole).toString(),
                 QStringLiteral("The swept field c.threshold: each variant's value (- for a design that does not "
                                "vary it)"));
        QCOMPARE(model.columnOf(DesignsModel::Design), 0);
        QCOMPARE(model.columnOf(DesignsModel::Accuracy), 2);
        QCOMPARE(model.columnOf(DesignsModel::Failures), 9);
        const QStringList cells{"-", "-", "0.2", "0.5", "0.9"};
        for (int row = 0; row < 5; ++row)
            QCOMPARE(text(&model, row, 1), cells[row]);
        QCOMPARE(text(&model, 2, 0), QStringLiteral("cascade [c.threshold=0.2]"));
        QCOMPARE(text(&model, 3, model.columnOf(DesignsModel::Accuracy)), QStringLiteral("75.0% [30.1, 95.4]"));
        QCOMPARE(text(&model, 4, model.columnOf(DesignsModel::CostPerTrial)), QStringLiteral("$0.0110"));

        // Sorted as numbers, the designs that do not vary the field first.
        QSortFilterProxyModel sorted;
        sorted.setSourceModel(&model);
        sorted.setSortRole(DesignsModel::SortRole);
        sorted.sort(1, Qt::DescendingOrder);
        QCOMPARE(text(&sorted, 0, 0), QStringLiteral("cascade [c.threshold=0.9]"));
        QCOMPARE(text(&sorted, 2, 0), QStringLiteral("cascade [c.threshold=0.2]"));
        QCOMPARE(text(&sorted, 4, 1), QStringLiteral("-"));
        sorted.sort(1, Qt::AscendingOrder);
        QCOMPARE(text(&sorted, 2, 1), QStringLiteral("0.2"));
    }

    void noSweepNoColumns()
    {
        DesignsModel model;
        model.setSummary(cascadeSweep(true).summary);
        QCOMPARE(model.columnCount(), int(DesignsModel::Columns));
        QCOMPARE(model.columnOf(DesignsModel::Accuracy), int(DesignsModel::Accuracy));
        QCOMPARE(model.headerData(1, Qt::Horizontal).toString(), QStringLiteral("Accuracy [95% CI]"));
    }

    void theChartDrawsTheCurve()
    {
        SweepCurveChart chart;
        const auto report = cascadeSweep(true);
        chart.setCurve(report.curve);
        QCOMPARE(chart.lines().size(), size_t(1));
        QCOMPARE(chart.bands().size(), size_t(1));
        QCOMPARE(chart.hulls().size(), size_t(1));
        QCOMPARE(chart.variantPoints().size(), size_t(1));
        // In order of cost: 0.2 ($0.001, 25 %), 0.5 ($0.006, 75 %), 0.9 ($0.011, 100 %).
        const QList<QPointF> line{{0.001, 25}, {0.006, 75}, {0.011, 100}};
        QCOMPARE(chart.lines().front()->points(), line);
        QCOMPARE(chart.variantPoints().front()->points(), line);
        QCOMPARE(chart.lines().front()->name(), QStringLiteral("c.threshold")); // one series: the texts name it
        QCOMPARE(chart.bands().front()->name(), QStringLiteral("95% CI"));
        // The band of 0.5 is its quality's CI over the bootstrap's resamples of tasks.
        const auto& ci = report.curve->figures->curves.front().qualityCi[1];
        QCOMPARE(QString::fromStdString(ReportText::ciText(ci)), QStringLiteral("[25.0, 100.0]"));
        QCOMPARE(ci.lo, 0.25);
        QCOMPARE(ci.hi, 1.0);
        QCOMPARE(chart.bands().front()->upperSeries()->at(1), QPointF(0.006, ci.hi * 100));
        QCOMPARE(chart.bands().front()->lowerSeries()->at(1), QPointF(0.006, ci.lo * 100));
        QCOMPARE(chart.bands().front()->upperSeries()->at(2), QPointF(0.011, 100));
        QCOMPARE(chart.bands().front()->lowerSeries()->at(2), QPointF(0.011, 100));
        QCOMPARE(chart.hulls().front()->count(), 3);
        QCOMPARE(chart.hulls().front()->pen().style(), Qt::DashLine);
        // The single models, each with its CI bar.
        QCOMPARE(chart.references()->points(), (QList<QPointF>{{0.001, 25}, {0.01, 100}}));
        QCOMPARE(chart.references()->name(), QStringLiteral("single models"));
        // Four series in the legend: the line, its band, its hull, the single models; and two CI bars.
        QCOMPARE(chart.chart()->series().size(), 7);
        QStringList labels;
        for (const auto* label : chart.labels())
            labels << label->text();
        // 0.2 and the weak model alone share a point but are different series: both named.
        QCOMPARE(labels, (QStringList{"0.2", "0.5", "0.9", "wrong-100", "right-100"}));

        QCOMPARE(chart.basisLabel()->text(),
                 QStringLiteral("Held out: 4 tasks, 2,000 bootstrap resamples over tasks, "
                                "simulated: these results come from the local-moe simulator, not from real models"));
        // AIQ (0.0025 + 0.0034) / 0.009, APGR 1/6 + 5/12, CPT(50%) 0.5 · 0.75, CPT(80%) 0.5 + 0.2 by hand.
        QCOMPARE(chart.figuresLabel()->text(),
                 QStringLiteral("cascade (c.threshold): two-member cascade, wrong-100 (weak) and right-100 (strong)\n"
                                "AIQ 0.656 [0.450, 0.965] · APGR 0.583 [0.500, 0.875] · CPT(50%) 37.5 % "
                                "[12.5 %, 50.0 %] · CPT(80%) 70.0 % [20.0 %, 80.0 %]"));
        QVERIFY(chart.notesLabel()->isHidden());
        QVERIFY(!chart.chartView()->isHidden());
        QCOMPARE(chart.variantText(0, 1),
                 QStringLiteral("c.threshold = 0.5 (cascade)\ncost/trial $0.0060\nquality 75.0% [25.0, 100.0]\n"
                                "strong calls 50.0% (right-100)\non the hull"));
        QCOMPARE(chart.referenceText(0),
                 QStringLiteral("wrong-100 alone\ncost/trial $0.0010\nquality 25.0% [0.0, 75.0]"));
    }

    void withoutSingleModelsTheNotesStandForTheChart()
    {
        SweepCurveChart chart;
        const auto report = cascadeSweep(false);
        QVERIFY(report.curve && !report.curve->figures);
        chart.setCurve(report.curve);
        QVERIFY(chart.chartView()->isHidden());
        QVERIFY(chart.lines().empty());
        QVERIFY(!chart.notesLabel()->isHidden());
        QCOMPARE(chart.notesLabel()->text(),
                 QStringLiteral("Note: no single-model design: evaluate each model alone beside the sweep to give "
                                "the curve its reference points and cost axis"));
        QCOMPARE(chart.figuresLabel()->text(),
                 QStringLiteral("cascade (c.threshold): two-member cascade, wrong-100 (weak) and right-100 "
                                "(strong)"));
        QCOMPARE(chart.basisLabel()->text(), QStringLiteral("Held out: 4 tasks, simulated: these results come from the "
                                                            "local-moe simulator, not from real models"));
    }

    void textsStandBesideAShortWideChart_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::addColumn<bool>("beside");
        QTest::newRow("short and wide") << QSize(900, 260) << true;
        QTest::newRow("narrow") << QSize(400, 450) << false;
        QTest::newRow("not wide enough for both") << QSize(700, 300) << false;
    }

    void textsStandBesideAShortWideChart()
    {
        QFETCH(QSize, size);
        QFETCH(bool, beside);
        SweepCurveChart chart;
        chart.setCurve(cascadeSweep(true).curve);
        chart.resize(size);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        QCOMPARE(chart.textsBeside(), beside);
        // Far enough apart to be named each, every name inside the plot.
        for (const auto* label : chart.labels()) {
            QVERIFY(label->isVisible());
            QVERIFY(chart.chart()->plotArea().contains(label->sceneBoundingRect()));
        }
        const QRect plot = chart.chartView()->geometry();
        const QRect texts = chart.figuresLabel()->parentWidget()->geometry();
        QVERIFY(beside ? texts.left() >= plot.right() : texts.bottom() <= plot.top());
    }

    void theViewShowsTheCurveFirst_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::newRow("wide") << QSize(1400, 850);
        QTest::newRow("compact") << QSize(900, 700);
    }

    void theViewShowsTheCurveFirst()
    {
        QFETCH(QSize, size);
        ExperimentView view;
        view.resize(size);
        view.setReport(cascadeSweep(true));
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QTabWidget* tabs = view.isCompact() ? view.lowerTabs() : view.chartTabs();
        QCOMPARE(tabs->tabText(0), QStringLiteral("Quality–cost curve"));
        QCOMPARE(tabs->tabText(1), QStringLiteral("Trade-off"));
        QCOMPARE(tabs->currentWidget(), static_cast<QWidget*>(view.curveChart()));
        QVERIFY(view.curveChart()->isVisible());
        QCOMPARE(view.designsModel()->headerData(1, Qt::Horizontal).toString(), QStringLiteral("c.threshold"));
        QCOMPARE(view.chartTabs()->isVisible(), !view.isCompact());

        // An experiment that is no sweep: the Pareto chart alone, no tab bar.
        auto plain = cascadeSweep(true);
        plain.curve.reset();
        view.setReport(std::move(plain));
        QCOMPARE(tabs->indexOf(view.curveChart()), -1);
        QCOMPARE(tabs->tabText(0), QStringLiteral("Trade-off"));
        if (!view.isCompact()) {
            QCOMPARE(view.chartTabs()->count(), 1);
            QVERIFY(!view.chartTabs()->tabBar()->isVisible());
        }
        QVERIFY(view.pareto()->isVisible());
    }
};

QTEST_MAIN(TestSweepCurveChart)
#include "tst_sweepcurvechart.moc"
