// FidelityView on a FidelityReport built by hand: three designs, one
// predicted outside 1.96 combined standard errors, one with no simulated
// prediction (and why), a limitation. Exact series and diagonal, exact cell
// texts (core's, as `conclave fidelity` prints them), the marked z cell, the
// header's lines, the names in both themes; and the studio's entry point:
// the history's context menu opening the fidelity dialog, whose check runs
// off the GUI thread and whose closing mid-check never waits for it.
#include <QtTest>

#include "experiment/FidelityChart.h"
#include "experiment/FidelityController.h"
#include "experiment/FidelityDialog.h"
#include "experiment/FidelityTableModel.h"
#include "experiment/FidelityView.h"
#include "run/ExperimentHistoryPanel.h"
#include "run/RunController.h"
#include "studio/ExperimentActions.h"
#include "studio/MainWindow.h"

#include "conclave/experiment/ExperimentSetup.h"
#include "conclave/store/RunStore.h"

#include <QChart>
#include <QDoubleSpinBox>
#include <QGraphicsSimpleTextItem>
#include <QLabel>
#include <QLineSeries>
#include <QMenu>
#include <QPushButton>
#include <QScatterSeries>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QValueAxis>

using namespace conclave;
using conclave::ui::FidelityDialog;
using conclave::ui::FidelityTableModel;
using conclave::ui::FidelityView;
using C = conclave::FidelityReport::Column;

namespace {

const QString kLimitation =
    QStringLiteral("only one design combines calls: this checks skills more than how models combine");

AccuracyFigures figures(double accuracy, double lo, double hi)
{
    AccuracyFigures a;
    a.accuracy = accuracy;
    a.ci = {lo, hi};
    a.trials = a.scored = 60;
    a.tasks = 30;
    return a;
}

FidelityPrediction prediction(AccuracyFigures accuracy, double z, bool within)
{
    FidelityPrediction p;
    p.accuracy = accuracy;
    p.z = z;
    p.within = within;
    return p;
}

FidelityReport handMadeReport()
{
    FidelityReport r;
    r.experiments = {"e-1a2b"};
    r.holdout = 0.5;
    r.seed = 7;
    r.calibrationTasks = 30;
    r.heldOutTasks = 30;
    r.answers = 1224;
    r.resamples = 200;
    r.notMeasured = {"local/tiny-1b: ttft_ms, tokens_per_s"};

    FidelityDesign solo;
    solo.name = "solo: frontier-70b";
    solo.experiment = "e-1a2b";
    solo.measured = figures(0.759, 0.698, 0.820);
    solo.simulated = prediction(figures(0.70, 0.64, 0.76), -2.15, false);
    solo.simulated->costRatio = 1.31;
    solo.simulated->p50Ratio = 0.8;
    solo.replayed = prediction(figures(0.74, 0.68, 0.80), -0.45, true);
    solo.selfReplay = prediction(figures(0.759, 0.698, 0.820), 0, true);

    FidelityDesign cascade;
    cascade.name = "cascade: tiny, frontier";
    cascade.experiment = "e-1a2b";
    cascade.combines = true;
    cascade.measured = figures(0.62, 0.55, 0.69);
    cascade.simulated = prediction(figures(0.64, 0.58, 0.70), 0.43, true);
    cascade.simulated->costRatio = 0.9;
    cascade.simulated->p50Ratio = 1.1;
    cascade.simulated->p95Ratio = 1.2;

    FidelityDesign panel;
    panel.name = "judge panel";
    panel.experiment = "e-1a2b";
    panel.measured = figures(0.50, 0.43, 0.57);
    panel.why = "its judge calls a model no calibration measured";
    panel.replayed = prediction(figures(0.52, 0.45, 0.59), 0.40, true);

    r.designs = {solo, cascade, panel};
    r.simulatedOrder.pairs = 1;
    r.simulatedOrder.concordant = 1;
    r.simulatedOrder.tauB = 1.0;
    r.limitation = kLimitation.toStdString();
    return r;
}

QString cell(const FidelityTableModel* model, int row, int column, int role = Qt::DisplayRole)
{
    return model->data(model->index(row, column), role).toString();
}

std::string example(const std::string& name)
{
    return std::string(CONCLAVE_RESOURCES) + "/examples/" + name + ".team.json";
}

// A store with one experiment record and no trials: enough to be listed and checked (the check then fails).
QString storeExperiment(const QString& file, QString& error)
{
    EvalRequest request;
    request.designFiles = {example("keyword-vote")};
    request.taskset = "math";
    request.taskIds = {"math-001", "math-033"};
    request.clock = ClockRequest::Virtual;
    auto setup = ExperimentSetup::build(request, CONCLAVE_RESOURCES);
    if (!setup.spec) {
        error = QString::fromStdString(setup.errors.front());
        return {};
    }
    auto opened = RunStore::open(file.toStdString());
    if (!opened.store) {
        error = QString::fromStdString(opened.error);
        return {};
    }
    ExperimentRecord record;
    record.id = setup.spec->id();
    record.name = "left behind";
    record.status = ExperimentStatus::Interrupted;
    record.specJson = setup.spec->toJson().dump();
    record.designs = {setup.spec->designs.front().name};
    record.taskset = setup.spec->tasksetName;
    record.plannedTrials = 2;
    auto e = opened.store->saveExperiment(record);
    if (!e)
        e = opened.store->flushTrials();
    if (e)
        error = QString::fromStdString(*e);
    return QString::fromStdString(record.id);
}

} // namespace

class TestFidelityView : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void eachKindOfPredictionIsASeriesOverTheDiagonal()
    {
        FidelityView view;
        view.resize(1200, 800);
        view.setReport(handMadeReport());
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        auto* chart = view.chart();
        QCOMPARE(chart->simulatedSeries()->count(), 2); // the panel has no simulated twin
        QCOMPARE(chart->replayedSeries()->count(), 2);  // the cascade was not replayed
        QCOMPARE(chart->simulatedSeries()->at(0), QPointF(75.9, 70.0));
        QCOMPARE(chart->replayedSeries()->at(1), QPointF(50.0, 52.0));
        QVERIFY(chart->simulatedSeries()->markerShape() != chart->replayedSeries()->markerShape());
        QVERIFY(chart->simulatedSeries()->color() != chart->replayedSeries()->color());
        // 43 % (the panel's measured CI) to 82 % (the solo's), padded and rounded to steps of 10, on both axes.
        QCOMPARE(chart->diagonal()->count(), 2);
        QCOMPARE(chart->diagonal()->at(0), QPointF(40, 40));
        QCOMPARE(chart->diagonal()->at(1), QPointF(90, 90));
        QCOMPARE(chart->xAxis()->min(), 40.0);
        QCOMPARE(chart->xAxis()->max(), 90.0);
        QCOMPARE(chart->yAxis()->min(), 40.0);
        QCOMPARE(chart->yAxis()->max(), 90.0);
        QCOMPARE(chart->xAxis()->labelFormat(), QStringLiteral("%.0f%"));
        // A bar per CI: two per point; the diagonal, the bars and the two series.
        QCOMPARE(chart->chart()->series().size(), 1 + 2 * 4 + 2);
        QStringList names;
        for (auto* label : chart->labels())
            names << label->text();
        QCOMPARE(names, QStringList({"solo: frontier-70b", "cascade: tiny, frontier", "judge panel"}));
        for (auto* label : chart->labels())
            QVERIFY(chart->chart()->plotArea().contains(label->sceneBoundingRect()));
        QVERIFY(chart->pointText(0, false).contains(QStringLiteral("simulated 70.0% [64.0, 76.0], z -2.15")));
        QVERIFY(chart->pointText(0, false).endsWith(QStringLiteral("outside 1.96 combined standard errors")));
    }

    void theTableHasTheCliTexts()
    {
        FidelityView view;
        const auto report = handMadeReport();
        view.setReport(report);
        const auto* model = view.model();
        QCOMPARE(model->rowCount(), 3);
        QCOMPARE(model->columnCount(), 10);
        QCOMPARE(cell(model, 0, C::Design), QStringLiteral("solo: frontier-70b"));
        QCOMPARE(cell(model, 0, C::Measured), QStringLiteral("75.9% [69.8, 82.0]"));
        QCOMPARE(cell(model, 0, C::Simulated), QStringLiteral("70.0% [64.0, 76.0]"));
        QCOMPARE(cell(model, 0, C::SimulatedZ), QStringLiteral("-2.15"));
        QCOMPARE(cell(model, 0, C::CostRatio), QStringLiteral("1.31x"));
        QCOMPARE(cell(model, 0, C::P50Ratio), QStringLiteral("0.80x"));
        QCOMPARE(cell(model, 0, C::P95Ratio), QStringLiteral("n/a"));
        QCOMPARE(cell(model, 0, C::Replayed), QStringLiteral("74.0% [68.0, 80.0]"));
        QCOMPARE(cell(model, 0, C::ReplayedZ), QStringLiteral("-0.45"));
        QCOMPARE(cell(model, 0, C::SelfReplay), QStringLiteral("75.9%"));
        QCOMPARE(cell(model, 1, C::SimulatedZ), QStringLiteral("+0.43"));
        QCOMPARE(cell(model, 1, C::Replayed), QStringLiteral("-"));
        QCOMPARE(cell(model, 1, C::SelfReplay), QStringLiteral("-"));
        for (int c = C::Simulated; c <= C::P95Ratio; ++c)
            QCOMPARE(cell(model, 2, c), QStringLiteral("-"));
        QCOMPARE(cell(model, 2, C::Simulated, Qt::ToolTipRole),
                 QStringLiteral("Not predicted: its judge calls a model no calibration measured"));
        QCOMPARE(cell(model, 2, C::ReplayedZ), QStringLiteral("+0.40"));
        // Row for row what the terminal table prints.
        const QString table = QString::fromStdString(report.table());
        for (int row = 0; row < 3; ++row)
            for (int c = 0; c < C::ColumnCount; ++c)
                QVERIFY(table.contains(cell(model, row, c)));
        QCOMPARE(model->headerData(C::Simulated, Qt::Horizontal).toString(), QStringLiteral("simulated (95% CI)"));
    }

    void onlyThePredictionOutside196SeIsMarked()
    {
        FidelityView view;
        view.setReport(handMadeReport());
        const auto* model = view.model();
        for (int row = 0; row < 3; ++row)
            for (int c = 0; c < C::ColumnCount; ++c) {
                const bool marked = row == 0 && c == C::SimulatedZ;
                QCOMPARE(model->data(model->index(row, c), FidelityTableModel::OutsideRole).toBool(), marked);
                QCOMPARE(model->data(model->index(row, c), Qt::BackgroundRole).isValid(), marked);
            }
        QColor warning = FidelityTableModel::warningColour();
        warning.setAlpha(150);
        QCOMPARE(model->data(model->index(0, C::SimulatedZ), Qt::BackgroundRole).value<QColor>(), warning);
    }

    void theHeaderSaysWhatWasCalibratedAndPredicted()
    {
        FidelityView view;
        view.resize(1200, 800);
        view.setReport(handMadeReport());
        view.show();
        QCOMPARE(view.title()->text(),
                 QStringLiteral("fidelity of the local-moe SIMULATOR against e-1a2b: calibrated on 30 tasks (1,224 "
                                "answers), predicted on 30 held-out tasks (--holdout 0.5, seed 7)"));
        QCOMPARE(view.limitation()->text(), kLimitation);
        QVERIFY(view.limitation()->isVisible());
        const QStringList summary = view.summary()->text().split(QLatin1Char('\n'));
        QCOMPARE(summary.size(), 4);
        QCOMPARE(summary[1],
                 QStringLiteral("1 of 2 simulated predictions within 1.96 combined standard errors of the measurement"));
        QCOMPARE(summary[2], QStringLiteral("simulated order: Kendall's tau-b 1.00 over 1 pair whose measured CIs do "
                                            "not overlap (1 in the measured order, 0 reversed)"));
        QCOMPARE(summary[3], QStringLiteral("calibration uncertainty: 200 resamples"));
        QCOMPARE(view.notes()->text(),
                 QStringLiteral("judge panel: not predicted: its judge calls a model no calibration measured\n"
                                "not measured — built-in default used: local/tiny-1b: ttft_ms, tokens_per_s"));

        auto report = handMadeReport();
        report.limitation.clear();
        view.setReport(report);
        QVERIFY(!view.limitation()->isVisible());

        report.folds = 2;
        report.holdout = 0.5;
        report.calibrationTasks = report.heldOutTasks = 60;
        report.answers = 2448;
        view.setReport(report);
        QCOMPARE(view.title()->text(),
                 QStringLiteral("fidelity of the local-moe SIMULATOR against e-1a2b: 2-fold cross-fit: each of 2 parts "
                                "of 60 tasks predicted from a calibration on the others (2,448 answers read in all; "
                                "--folds 2, seed 7)"));
    }

    void theNamesAndTheDiagonalFollowTheTheme()
    {
        FidelityView view;
        view.setReport(handMadeReport());
        QPalette dark = view.palette();
        dark.setColor(QPalette::Text, QColor(0xe5, 0xe7, 0xeb));
        dark.setColor(QPalette::Base, QColor(0x2a, 0x2d, 0x34));
        dark.setColor(QPalette::Window, QColor(0x1e, 0x20, 0x25));
        view.setPalette(dark);
        for (auto* label : view.chart()->labels())
            QCOMPARE(label->brush().color(), QColor(0xe5, 0xe7, 0xeb));
        QCOMPARE(view.chart()->diagonal()->pen().color().rgb(), QColor(0xe5, 0xe7, 0xeb).rgb());
        QCOMPARE(view.chart()->chart()->backgroundBrush().color(), QColor(0x2a, 0x2d, 0x34));
        QVERIFY(view.limitation()->palette().color(QPalette::Window).lightness() < 128);
    }

    void theHistorysContextMenuOpensTheDialog()
    {
        QTemporaryDir dir;
        const QString db = dir.filePath(QStringLiteral("runs.sqlite"));
        QString error;
        const QString id = storeExperiment(db, error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        conclave::ui::MainWindow window;
        QVERIFY(window.setRunStore(db));
        auto* history = window.experimentHistory();
        QVERIFY(history->refresh());
        history->selectIds({id});
        std::unique_ptr<QMenu> menu(history->contextMenu());
        auto* action = menu->findChild<QAction*>(QStringLiteral("experimentMenuFidelity"));
        QVERIFY(action);
        QCOMPARE(action->text(), QStringLiteral("Simulator fidelity…"));
        QVERIFY(action->isEnabled());
        action->trigger();
        QPointer<FidelityDialog> dialog = window.experiments()->fidelityDialog({id});
        QVERIFY(dialog);
        QVERIFY(dialog->isVisible());
        QCOMPARE(dialog->holdoutBox()->value(), 0.5);
        QCOMPARE(dialog->seedBox()->value(), 0);
        QCOMPARE(dialog->foldsBox()->value(), 1);
        QCOMPARE(dialog->foldsBox()->text(), QStringLiteral("off"));
        QVERIFY(dialog->holdoutBox()->isEnabled());
        dialog->foldsBox()->setValue(3); // cross-fitting holds out each part in turn: no share to set
        QVERIFY(!dialog->holdoutBox()->isEnabled());
        dialog->setFolds(1);
        QVERIFY(dialog->holdoutBox()->isEnabled());
        QVERIFY(!dialog->view()->isVisible()); // nothing to show before a check

        // A check of an experiment with no trials fails on its thread, with the reason, and the GUI stays free.
        QSignalSpy checked(dialog.data(), &FidelityDialog::checked);
        QVERIFY(dialog->start());
        QVERIFY(dialog->controller()->isRunning());
        QVERIFY(!dialog->checkButton()->isEnabled());
        QVERIFY(checked.wait(30000));
        QCOMPARE(checked.at(0).at(0).toBool(), false);
        QVERIFY(dialog->status()->text().startsWith(QStringLiteral("The check failed: ")));
        QVERIFY(dialog->checkButton()->isEnabled());

        // Closed mid-check, it hides at once and goes once the check has ended.
        QVERIFY(dialog->start());
        dialog->close();
        QVERIFY(!dialog->isVisible());
        QTRY_VERIFY_WITH_TIMEOUT(dialog.isNull(), 30000);
        QVERIFY(!window.experiments()->fidelityDialog({id}));
    }
};

QTEST_MAIN(TestFidelityView)
#include "tst_fidelityview.moc"
