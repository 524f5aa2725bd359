// TrainRouterDialog (Run > Train Router…) over a store with two experiments:
// the learned router's training design (generalist and frontier both answer)
// on 40 sampled math tasks under seeds 1 and 2, on the simulated clock, and
// one left interrupted before its first trial (no answer to learn from). The
// experiments and the models that answered, the figures of a training with
// the exact texts `conclave train-router EXPERIMENT --db DB -o FILE` prints
// for it (logistic and knn, held-out share 0.3, seed 0), the file written,
// a cancelled training that writes none, the refusals' exact messages, and
// the studio's menu entry and the history's context menu opening it with the
// selection checked and a file beside the open team.
#include <QtTest>

#include "support/EngineTestKit.h"
#include "support/QtStrings.h"

#include "experiment/RouterHeldOutModel.h"
#include "experiment/TrainRouterController.h"
#include "experiment/TrainRouterDialog.h"
#include "run/ExperimentHistoryPanel.h"
#include "run/RunController.h"
#include "studio/MainWindow.h"

#include "conclave/experiment/ExperimentRunner.h"
#include "conclave/experiment/ExperimentSetup.h"
#include "conclave/experiment/StoredTrials.h"
#include "conclave/routing/RouterFile.h"
#include "conclave/store/RunStore.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QListWidget>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QSpinBox>
#include <QTableView>
#include <QTemporaryDir>
#include <QTreeWidget>

#include <memory>

using namespace conclave;
using namespace enginetest;
using conclave::ui::RouterHeldOutModel;
using conclave::ui::RunController;
using conclave::ui::TrainRouterDialog;

namespace {

// Runs the experiment into `store`: its id, or an empty one with `error`.
std::string storeExperiment(Engine& engine, RunStore& store, QString& error)
{
    EvalRequest request;
    request.designFiles = {std::string(CONCLAVE_RESOURCES) + "/examples/learned-router/both-answer.team.json"};
    request.taskset = "math";
    request.sample = 40;
    request.seeds = {1, 2};
    request.clock = ClockRequest::Virtual;
    request.name = "router data";
    auto setup = ExperimentSetup::build(request, CONCLAVE_RESOURCES);
    if (!setup.spec) {
        error = q(setup.errors.front());
        return {};
    }
    StoredTrials sink(store, StoredTrials::Keep::Runs);
    ExperimentRunner runner(engine, sink, *setup.spec, {});
    const auto outcome = runner.run();
    if (!outcome.error.empty() || outcome.ran != 80) {
        error = QStringLiteral("the experiment ran %1 trials: %2").arg(outcome.ran).arg(q(outcome.error));
        return {};
    }
    return runner.id();
}

// An experiment that stopped before its first trial: its id, or an empty one with `error`.
std::string storeEmptyExperiment(RunStore& store, QString& error)
{
    EvalRequest request;
    request.designFiles = {std::string(CONCLAVE_RESOURCES) + "/examples/keyword-vote.team.json"};
    request.taskset = "math";
    request.taskIds = {"math-001", "math-033"};
    request.clock = ClockRequest::Virtual;
    auto setup = ExperimentSetup::build(request, CONCLAVE_RESOURCES);
    if (!setup.spec) {
        error = q(setup.errors.front());
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
    record.startedAtMs = 1709285400000; // 2024-03-01: listed after the one just run
    record.endedAtMs = record.startedAtMs + 60000;
    auto e = store.saveExperiment(record);
    if (!e)
        e = store.flushTrials();
    if (e) {
        error = q(*e);
        return {};
    }
    return record.id;
}

QStringList rowTexts(const QAbstractItemModel* model, int row)
{
    QStringList texts;
    for (int c = 0; c < model->columnCount(); ++c)
        texts << model->index(row, c).data().toString();
    return texts;
}

QStringList itemTexts(const QListWidget* list)
{
    QStringList texts;
    for (int i = 0; i < list->count(); ++i)
        texts << list->item(i)->text();
    return texts;
}

} // namespace

class TestTrainRouterDialog : public QObject {
    Q_OBJECT

    EngineHarness m_h;
    QTemporaryDir m_dir;
    QString m_experiment;
    QString m_empty;

    std::filesystem::path db() const { return m_dir.filePath("runs.sqlite").toStdString(); }

    // A dialog over the store with the experiment checked and its models read.
    static bool ready(TrainRouterDialog& dialog, const QString& experiment)
    {
        if (!dialog.refreshExperiments())
            return false;
        QSignalSpy shown(&dialog, &TrainRouterDialog::modelsShown);
        dialog.setCheckedExperiments({experiment});
        return shown.wait(60000) && shown.at(0).at(0).toBool();
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_h.init());
        auto opened = RunStore::open(db());
        QVERIFY2(opened.store, opened.error.c_str());
        QString error;
        m_experiment = q(storeExperiment(m_h.engine(), *opened.store, error));
        QVERIFY2(error.isEmpty(), qPrintable(error));
        m_empty = q(storeEmptyExperiment(*opened.store, error));
        QVERIFY2(error.isEmpty(), qPrintable(error));
        if (qEnvironmentVariableIsSet("KEEP_STORE"))
            QFile::copy(m_dir.filePath("runs.sqlite"), qEnvironmentVariable("KEEP_STORE"));
    }

    void listsExperimentsAndTheModelsThatAnswered()
    {
        RunController runs(CONCLAVE_RESOURCES, db());
        TrainRouterDialog dialog(&runs);
        QVERIFY(dialog.refreshExperiments());
        const QTreeWidget* list = dialog.experiments();
        QCOMPARE(list->topLevelItemCount(), 2);
        QCOMPARE(list->topLevelItem(1)->data(0, Qt::UserRole).toString(), m_empty);
        QCOMPARE(list->topLevelItem(1)->text(2), QStringLiteral("0/2"));
        const auto* item = list->topLevelItem(0);
        QCOMPARE(item->data(0, Qt::UserRole).toString(), m_experiment);
        QCOMPARE(item->checkState(0), Qt::Unchecked);
        QCOMPARE(item->text(0), QStringLiteral("router data"));
        QCOMPARE(item->text(1), QStringLiteral("math"));
        QCOMPARE(item->text(2), QStringLiteral("80/80"));
        QCOMPARE(item->text(3), QStringLiteral("Learned router training: generalist and frontier both answer"));
        QCOMPARE(dialog.status()->text(),
                 QStringLiteral("Learns which candidate model answers which prompt right from the checked "
                                "experiments, and measures it on the tasks held out; it takes seconds."));
        QCOMPARE(dialog.holdoutBox()->value(), 0.3);
        QCOMPARE(dialog.seedBox()->value(), 0);
        QCOMPARE(dialog.methodBox()->currentText(), QStringLiteral("logistic"));

        // Checking it reads its models off the GUI thread: every one checked.
        QSignalSpy shown(&dialog, &TrainRouterDialog::modelsShown);
        dialog.experiments()->topLevelItem(0)->setCheckState(0, Qt::Checked);
        QVERIFY(dialog.controller()->isBusy());
        QVERIFY(!dialog.trainButton()->isEnabled());
        QVERIFY(shown.wait(60000));
        QCOMPARE(shown.at(0).at(0).toBool(), true);
        QCOMPARE(itemTexts(dialog.models()), QStringList({"local/frontier-70b", "local/generalist-7b"}));
        QCOMPARE(dialog.checkedModels(), QStringList({"local/frontier-70b", "local/generalist-7b"}));
        QVERIFY(dialog.models()->isVisibleTo(&dialog));
        QVERIFY(!dialog.modelsNote()->isVisibleTo(&dialog));
        QCOMPARE(dialog.status()->text(), QStringLiteral("2 models answered in these experiments: uncheck those the "
                                                         "router must not choose, then Train."));
        QVERIFY(dialog.trainButton()->isEnabled());
        QVERIFY(!dialog.table()->isVisibleTo(&dialog)); // nothing to show before a training
    }

    void trainsAndShowsWhatTheCommandPrints_data()
    {
        QTest::addColumn<QString>("method");
        QTest::addColumn<QStringList>("frontier");
        QTest::addColumn<QStringList>("generalist");
        QTest::addColumn<QString>("summary");
        // What `conclave train-router` prints for this experiment, with and without --method knn.
        QTest::newRow("logistic")
            << "logistic" << QStringList{"local/frontier-70b", "58", "0.879", "22", "0.474", "0.500", "0.556"}
            << QStringList{"local/generalist-7b", "58", "0.569", "22", "0.679", "0.348", "0.519"}
            << "Wrote %1: logistic router over 2 models, trained on 29 tasks (116 answers) of 1 experiment\n"
               "weights: separate per model (cross-validated error of the differences between models 0.1492, "
               "common 0.1685)\n"
               "held out: 11 tasks (30 %, seed 0)\n"
               "mean held-out AUROC 0.424 (domain-only 0.537); the prompt's gain -0.113, 95 % CI [-0.569, +0.370] "
               "(paired bootstrap over held-out tasks)\n"
               "the prompt adds nothing over the domain: AUROC 0.42 vs 0.54 domain-only";
        QTest::newRow("knn")
            << "knn" << QStringList{"local/frontier-70b", "58", "0.879", "22", "0.490", "0.500", "0.625"}
            << QStringList{"local/generalist-7b", "58", "0.569", "22", "0.652", "0.500", "0.300"}
            << "Wrote %1: knn router over 2 models, trained on 29 tasks (116 answers) of 1 experiment\n"
               "k 40 (chosen by 5-fold cross-validation grouped by task)\n"
               "held out: 11 tasks (30 %, seed 0)\n"
               "mean held-out AUROC 0.500 (domain-only 0.463); the prompt's gain +0.037, 95 % CI "
               "[-0.179, +0.266] (paired bootstrap over held-out tasks)\n"
               "the prompt adds nothing over the domain: AUROC 0.50 vs 0.46 domain-only";
    }
    void trainsAndShowsWhatTheCommandPrints()
    {
        QFETCH(QString, method);
        QFETCH(QStringList, frontier);
        QFETCH(QStringList, generalist);
        QFETCH(QString, summary);
        RunController runs(CONCLAVE_RESOURCES, db());
        TrainRouterDialog dialog(&runs);
        QVERIFY(ready(dialog, m_experiment));
        const QString file = m_dir.filePath(method + ".router.json");
        dialog.setOutput(file);
        dialog.methodBox()->setCurrentText(method);
        QSignalSpy trained(&dialog, &TrainRouterDialog::trainedRouter);
        QVERIFY(dialog.train());
        // The GUI is free while it trains: the form waits, Cancel is offered.
        QVERIFY(dialog.controller()->isTraining());
        QVERIFY(!dialog.trainButton()->isEnabled());
        QVERIFY(!dialog.experiments()->isEnabled());
        QVERIFY(dialog.cancelButton()->isVisibleTo(&dialog));
        QCOMPARE(dialog.status()->text(), QStringLiteral("Training…"));
        QVERIFY(trained.wait(60000));
        QCOMPARE(trained.at(0).at(0).toBool(), true);
        QVERIFY(dialog.status()->text().startsWith(QStringLiteral("Trained in ")));
        QVERIFY(!dialog.cancelButton()->isVisibleTo(&dialog));
        QVERIFY(dialog.table()->isVisibleTo(&dialog));

        const auto* figures = dialog.figures();
        QCOMPARE(figures->columnCount(), 7);
        QCOMPARE(figures->headerData(RouterHeldOutModel::AurocColumn, Qt::Horizontal).toString(),
                 QStringLiteral("AUROC"));
        QCOMPARE(figures->rowCount(), 2);
        QCOMPARE(rowTexts(figures, 0), frontier);
        QCOMPARE(rowTexts(figures, 1), generalist);
        QCOMPARE(dialog.summary()->text(), summary.arg(file));
        QCOMPARE(dialog.warnings()->text(),
                 QStringLiteral("Warning: model local/frontier-70b had only 58 training answers (fewer than 100): its "
                                "predictions rest on little\nWarning: model local/generalist-7b had only 58 training "
                                "answers (fewer than 100): its predictions rest on little"));

        const auto loaded = RouterFile::load(file.toStdString());
        QVERIFY(loaded.model);
        QCOMPARE(loaded.model->models, (std::vector<std::string>{"local/frontier-70b", "local/generalist-7b"}));
        QCOMPARE(q(toString(loaded.model->method)), method);
        QFile written(file);
        QVERIFY(written.open(QIODevice::ReadOnly));
        QCOMPARE(written.readAll().toStdString(), RouterFile::toJsonText(dialog.controller()->result()->model));
    }

    void weightsAreALogisticChoice()
    {
        RunController runs(CONCLAVE_RESOURCES, db());
        TrainRouterDialog dialog(&runs);
        QVERIFY(ready(dialog, m_experiment));
        auto* weights = dialog.weightsBox();
        QCOMPARE(weights->currentText(), QStringLiteral("chosen by cross-validation"));
        QVERIFY(weights->isEnabled());
        dialog.methodBox()->setCurrentText("knn");
        QVERIFY(!weights->isEnabled());
        dialog.methodBox()->setCurrentText("logistic");
        QVERIFY(weights->isEnabled());

        // Asked for common weights, the router has them and says so.
        weights->setCurrentText(QStringLiteral("common, each model its own bias"));
        const QString file = m_dir.filePath("common.router.json");
        dialog.setOutput(file);
        QSignalSpy trained(&dialog, &TrainRouterDialog::trainedRouter);
        QVERIFY(dialog.train());
        QVERIFY(trained.wait(60000));
        QCOMPARE(trained.at(0).at(0).toBool(), true);
        QVERIFY(dialog.summary()->text().contains(
            QStringLiteral("\nweights: common to the models, each with its own bias\n")));
        const auto loaded = RouterFile::load(file.toStdString());
        QVERIFY(loaded.model);
        QVERIFY(loaded.model->commonWeights);
        QVERIFY(!loaded.model->pooling);
        QCOMPARE(loaded.model->linear[0].weights, loaded.model->linear[1].weights);
    }

    void refusals_data()
    {
        QTest::addColumn<QString>("setup");
        QTest::addColumn<bool>("started"); // refused on its thread rather than before it starts
        QTest::addColumn<QString>("status");
        QTest::newRow("no experiment") << "none" << false
                                       << "Cannot train: no experiment to train on: check one or more";
        QTest::newRow("no model checked")
            << "no model" << false << "Cannot train: no model is checked (a router chooses between two or more)";
        QTest::newRow("one model checked")
            << "one model" << true
            << "Training failed: a router chooses between models: name at least two (answering: local/frontier-70b, "
               "local/generalist-7b)";
        QTest::newRow("no router file") << "no file" << false
                                        << "Cannot train: no router file to write: choose where to save it";
        QTest::newRow("a folder that is not there")
            << "bad folder" << true
            << "Training failed: %1/missing/r.json: cannot create a temporary file in %1/missing: No such file or "
               "directory";
        QTest::newRow("no answer to learn from")
            << "empty" << true
            << "Training failed: these experiments hold no scored answer to train on (a router learns from trials "
               "whose experts answered tasks with reference answers)";
    }
    void refusals()
    {
        QFETCH(QString, setup);
        QFETCH(bool, started);
        QFETCH(QString, status);
        RunController runs(CONCLAVE_RESOURCES, db());
        TrainRouterDialog dialog(&runs);
        QVERIFY(ready(dialog, m_experiment));
        dialog.setOutput(m_dir.filePath("refused.router.json"));
        if (setup == "none") {
            dialog.setCheckedExperiments({});
            QCOMPARE(dialog.status()->text(), QStringLiteral("Check the experiments to learn from."));
            QCOMPARE(dialog.models()->count(), 0);
            QVERIFY(dialog.modelsNote()->isVisibleTo(&dialog));
            QCOMPARE(dialog.modelsNote()->text(),
                     QStringLiteral("Check an experiment: the models that answered in it are listed here."));
        } else if (setup == "no model" || setup == "one model") {
            dialog.models()->item(1)->setCheckState(Qt::Unchecked);
            if (setup == "no model")
                dialog.models()->item(0)->setCheckState(Qt::Unchecked);
        } else if (setup == "no file") {
            dialog.setOutput(QStringLiteral("  "));
        } else if (setup == "bad folder") {
            dialog.setOutput(m_dir.filePath("missing/r.json"));
        } else if (setup == "empty") {
            QSignalSpy shown(&dialog, &TrainRouterDialog::modelsShown);
            dialog.setCheckedExperiments({m_empty});
            QVERIFY(shown.wait(60000));
            QCOMPARE(dialog.models()->count(), 0);
            QVERIFY(!dialog.models()->isVisibleTo(&dialog));
            QCOMPARE(dialog.modelsNote()->text(), QStringLiteral("No model answered on its own in these experiments."));
            QCOMPARE(dialog.status()->text(),
                     QStringLiteral("No model gave a scored answer in these experiments: a router learns from trials "
                                    "whose experts answered tasks with reference answers."));
        }
        QSignalSpy trained(&dialog, &TrainRouterDialog::trainedRouter);
        QCOMPARE(dialog.train(), started);
        if (started) {
            QVERIFY(trained.wait(60000));
            QCOMPARE(trained.at(0).at(0).toBool(), false);
        }
        QCOMPARE(dialog.status()->text(), QString(status).replace(QStringLiteral("%1"), m_dir.path()));
        QVERIFY(!dialog.table()->isVisibleTo(&dialog));
        QVERIFY(dialog.trainButton()->isEnabled());
        QVERIFY(!QFile::exists(m_dir.filePath("refused.router.json")));
        QVERIFY(!QFile::exists(m_dir.filePath("missing")));
    }

    void aCancelledTrainingWritesNoFile()
    {
        RunController runs(CONCLAVE_RESOURCES, db());
        TrainRouterDialog dialog(&runs);
        QVERIFY(ready(dialog, m_experiment));
        const QString file = m_dir.filePath("cancelled.router.json");
        dialog.setOutput(file);
        QSignalSpy trained(&dialog, &TrainRouterDialog::trainedRouter);
        QVERIFY(dialog.train());
        dialog.cancelButton()->click();
        QVERIFY(!dialog.cancelButton()->isEnabled());
        QCOMPARE(dialog.status()->text(),
                 QStringLiteral("Cancelling: the training under way runs to its end, then is dropped…"));
        QVERIFY(trained.wait(60000));
        QCOMPARE(trained.at(0).at(0).toBool(), false);
        QCOMPARE(dialog.status()->text(), QStringLiteral("Cancelled: no file was written."));
        QVERIFY(!QFile::exists(file));
        QVERIFY(dialog.trainButton()->isEnabled());

        // Closing it mid-training hides it at once and cancels the training: no file either.
        dialog.show();
        QVERIFY(dialog.train());
        dialog.close();
        QVERIFY(!dialog.isVisible());
        QVERIFY(dialog.controller()->isCancelling());
        QVERIFY(trained.wait(60000));
        QCOMPARE(trained.at(1).at(0).toBool(), false);
        QVERIFY(!QFile::exists(file));
    }

    void theStudioOpensItWithTheSelectionBesideTheTeam()
    {
        const QString team = m_dir.filePath("both-answer.team.json");
        QFile::remove(team);
        QVERIFY(QFile::copy(CONCLAVE_RESOURCES "/examples/learned-router/both-answer.team.json", team));
        conclave::ui::MainWindow window;
        QVERIFY(window.openFile(team, false));
        QVERIFY(window.setRunStore(m_dir.filePath("runs.sqlite")));
        auto* history = window.experimentHistory();
        QVERIFY(history->refresh());

        // Run > Train Router… with the history's selection checked.
        QAction* action = window.action(QStringLiteral("actionTrainRouter"));
        QVERIFY(action);
        QCOMPARE(action->text(), QStringLiteral("Train &Router…"));
        bool inRunMenu = false;
        for (QAction* menu : window.menuBar()->actions()) {
            if (menu->text() == QStringLiteral("&Run"))
                inRunMenu = menu->menu()->actions().contains(action);
        }
        QVERIFY(inRunMenu);
        history->selectIds({m_experiment});
        action->trigger();
        auto* dialog = window.experiments()->trainRouterDialog();
        QVERIFY(dialog);
        QVERIFY(dialog->isVisible());
        QCOMPARE(dialog->checkedExperiments(), QStringList{m_experiment});
        QCOMPARE(dialog->output(), m_dir.filePath("both-answer.router.json"));
        QSignalSpy shown(dialog, &TrainRouterDialog::modelsShown);
        QVERIFY(shown.wait(60000));
        QCOMPARE(dialog->models()->count(), 2);
        dialog->close();

        // The history's context menu opens the same dialog with its selection; the
        // default file is never one that exists (here, what an earlier training wrote).
        QFile earlier(m_dir.filePath("both-answer.router.json"));
        QVERIFY(earlier.open(QIODevice::WriteOnly));
        earlier.close();
        history->selectIds({m_empty});
        std::unique_ptr<QMenu> menu(history->contextMenu());
        auto* train = menu->findChild<QAction*>(QStringLiteral("experimentMenuTrainRouter"));
        QVERIFY(train);
        QCOMPARE(train->text(), QStringLiteral("Train router…"));
        QVERIFY(train->isEnabled());
        train->trigger();
        QCOMPARE(window.experiments()->trainRouterDialog(), dialog);
        QVERIFY(dialog->isVisible());
        QCOMPARE(dialog->checkedExperiments(), QStringList{m_empty});
        QCOMPARE(dialog->output(), m_dir.filePath("both-answer-2.router.json"));
        QVERIFY(shown.wait(60000));
        QCOMPARE(dialog->models()->count(), 0);
    }
};

QTEST_MAIN(TestTrainRouterDialog)
#include "tst_trainrouterdialog.moc"
