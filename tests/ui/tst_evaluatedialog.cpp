// Run > Evaluate Designs…: the form builds the request `conclave eval` would
// take (designs, task set and subset, seeds, clock, baseline), shows core's
// errors, and runs on the ExperimentController off the GUI thread: exact
// progress and accuracy per design at the end, the open team evaluated as it
// is on screen, Cancel Run keeping what finished, Resume completing it.
#include <QtTest>

#include "experiment/EvaluateDialog.h"
#include "experiment/ExperimentController.h"
#include "experiment/TaskSetPicker.h"
#include "run/RunController.h"

#include "conclave/io/TeamFile.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTreeWidget>

using namespace conclave;
using conclave::ui::EvaluateDialog;
using conclave::ui::ExperimentController;
using conclave::ui::RunController;

namespace {

QString example(const QString& name)
{
    return QStringLiteral(CONCLAVE_RESOURCES "/examples/%1.team.json").arg(name);
}

Team team(const QString& name)
{
    return *loadTeamFile(example(name).toStdString()).team;
}

QStringList items(const QComboBox* box)
{
    QStringList out;
    for (int i = 0; i < box->count(); ++i)
        out << box->itemText(i);
    return out;
}

QStringList items(const QListWidget* list)
{
    QStringList out;
    for (int i = 0; i < list->count(); ++i)
        out << list->item(i)->text();
    return out;
}

QStringList row(const QTreeWidget* tree, int r)
{
    QStringList out;
    for (int c = 0; c < tree->columnCount(); ++c)
        out << tree->topLevelItem(r)->text(c);
    return out;
}

QStringList row(const QTableWidget* table, int r)
{
    QStringList out;
    for (int c = 0; c < table->columnCount(); ++c)
        out << table->item(r, c)->text();
    return out;
}

QString word(ExperimentStatus status)
{
    return QString::fromUtf8(toString(status).data(), qsizetype(toString(status).size()));
}

} // namespace

class TestEvaluateDialog : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    std::unique_ptr<RunController> m_runs;
    std::unique_ptr<ExperimentController> m_controller;
    std::unique_ptr<EvaluateDialog> m_dialog;

    // The cascade (the open team, edited on screen: renamed) and triage, on
    // mixed-small's math tasks, sampled to 4, seeds 1 and 2, simulated clock.
    void fillSmallForm(EvaluateDialog& d)
    {
        Team edited = team("cascade");
        edited.name = "Cascade (edited)";
        d.setOpenTeam(QStringLiteral("Cascade (edited)"), true, [edited] { return edited; });
        d.addDesignFiles({example("triage")});
        QVERIFY(d.tasks()->select(QStringLiteral("mixed-small")));
        d.tasks()->domainBox()->setCurrentIndex(d.tasks()->domainBox()->findData(QStringLiteral("math")));
        d.tasks()->sampleBox()->setValue(4);
        d.seeds()->setValue(2);
        d.clock()->setCurrentIndex(d.clock()->findData(int(ClockRequest::Virtual)));
        d.name()->setText(QStringLiteral("dialog test"));
    }

    QString runToTheEnd(EvaluateDialog& d, const std::function<bool(EvaluateDialog&)>& start)
    {
        QSignalSpy finished(m_controller.get(), &ExperimentController::finished);
        if (!start(d))
            return QStringLiteral("not started: ") + d.errors()->text();
        if (!finished.wait(60000))
            return QStringLiteral("did not finish");
        return {};
    }

private slots:
    void initTestCase() { qRegisterMetaType<ExperimentStatus>(); }

    void init()
    {
        QVERIFY(m_dir.isValid());
        const auto db =
            std::filesystem::path(m_dir.path().toStdString()) / (QTest::currentTestFunction() + std::string(".sqlite"));
        m_runs = std::make_unique<RunController>(CONCLAVE_RESOURCES, db);
        QVERIFY2(m_runs->resourceError().isEmpty(), qPrintable(m_runs->resourceError()));
        m_controller = std::make_unique<ExperimentController>(m_runs.get());
        m_dialog = std::make_unique<EvaluateDialog>(m_controller.get(), CONCLAVE_RESOURCES);
        m_dialog->setConfirmPaid(false);
    }

    void cleanup()
    {
        m_dialog.reset();
        m_controller.reset();
        m_runs.reset();
    }

    void offersTheBundledTaskSetsWithAPreview()
    {
        auto* picker = m_dialog->tasks();
        QCOMPARE(items(picker->setBox()),
                 (QStringList{"code", "facts", "math", "mixed-small", "reasoning", "writing"}));
        QCOMPARE(picker->taskset(), QStringLiteral("code"));
        QVERIFY(picker->select(QStringLiteral("mixed-small")));
        QCOMPARE(picker->setBox()->currentText(), QStringLiteral("mixed-small"));
        QCOMPARE(picker->summary()->text(),
                 QStringLiteral("25 tasks · code 5, facts 5, math 5, reasoning 5, writing 5"));
        QCOMPARE(items(picker->domainBox()),
                 (QStringList{"All domains", "code (5)", "facts (5)", "math (5)", "reasoning (5)", "writing (5)"}));
        QCOMPARE(picker->preview()->rowCount(), 5);
        QCOMPARE(row(picker->preview(), 0), (QStringList{"math-001", "math", "Calculate 323 + 460.", "783"}));
        QCOMPARE(row(picker->preview(), 2),
                 (QStringList{"facts-029", "facts", "Which element has atomic number 1?", "hydrogen"}));
        QCOMPARE(picker->selectedCount(), int64_t(25));
        picker->domainBox()->setCurrentIndex(3);
        QCOMPARE(picker->domain(), QStringLiteral("math"));
        QCOMPARE(picker->selectedCount(), int64_t(5));
        picker->sampleBox()->setValue(3);
        QCOMPARE(picker->selectedCount(), int64_t(3));
        picker->sampleBox()->setValue(9);
        QCOMPARE(picker->selectedCount(), int64_t(5));
    }

    void aTaskFileThatDoesNotLoadKeepsTheSetBefore()
    {
        const QString file = m_dir.filePath(QStringLiteral("bad.jsonl"));
        QFile out(file);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write("{\"id\": \"a\", \"prompt\": \"Say yes.\", \"answer\": \"yes\"}\n{\"id\": \"b\"}\n");
        out.close();
        auto* picker = m_dialog->tasks();
        QVERIFY(picker->select(QStringLiteral("math")));
        QVERIFY(!picker->select(file));
        QCOMPARE(picker->error(), file + QStringLiteral(":2:1: /prompt: missing; expected a non-empty string"));
        QCOMPARE(picker->summary()->text(), picker->error() + QStringLiteral(" (still using math)"));
        QCOMPARE(picker->taskset(), QStringLiteral("math"));
        QCOMPARE(picker->tasks()->tasks().size(), size_t(82));
    }

    void aTaskFileIsOfferedByItsName()
    {
        const QString file = m_dir.filePath(QStringLiteral("two.csv"));
        QFile out(file);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write("id,prompt,answer,domain\nt1,Say yes.,yes,chat\nt2,Calculate 2 + 2.,4,math\n");
        out.close();
        auto* picker = m_dialog->tasks();
        QVERIFY(picker->select(file));
        QCOMPARE(picker->setBox()->currentText(), QStringLiteral("two.csv"));
        QCOMPARE(picker->taskset(), file);
        QCOMPARE(picker->summary()->text(), QStringLiteral("2 tasks · chat 1, math 1"));
        QCOMPARE(m_dialog->request().taskset, file.toStdString());
    }

    void theFormIsTheRequest()
    {
        fillSmallForm(*m_dialog);
        QCOMPARE(items(m_dialog->designs()), (QStringList{"Cascade (edited) (open team, with unsaved edits)",
                                                          "Triage: gate or decompose — triage.team.json"}));
        QCOMPARE(items(m_dialog->baseline()), items(m_dialog->designs()));
        QCOMPARE(m_dialog->trialCountText(), QStringLiteral("2 designs × 4 tasks × 2 seeds = 16 trials"));

        EvalRequest r = m_dialog->request();
        QCOMPARE(r.designTeams.size(), size_t(1));
        QCOMPARE(QString::fromStdString(r.designTeams[0].name), QStringLiteral("Cascade (edited)"));
        QCOMPARE(r.designFiles, (std::vector<std::string>{example("triage").toStdString()}));
        QVERIFY(!r.baselineFile);
        QCOMPARE(r.taskset, std::string("mixed-small"));
        QCOMPARE(r.domain, std::string("math"));
        QCOMPARE(r.sample, std::optional<size_t>(4));
        QCOMPARE(r.seeds, (std::vector<uint64_t>{1, 2}));
        QCOMPARE(int(r.clock), int(ClockRequest::Virtual));
        QCOMPARE(r.name, std::string("dialog test"));

        // Triage as the baseline is named by its file; the open team unchecked is no design.
        m_dialog->baseline()->setCurrentIndex(1);
        QCOMPARE(m_dialog->request().baselineFile, std::optional<std::string>(example("triage").toStdString()));
        m_dialog->designs()->item(0)->setCheckState(Qt::Unchecked);
        QCOMPARE(items(m_dialog->baseline()), (QStringList{"Triage: gate or decompose — triage.team.json"}));
        r = m_dialog->request();
        QVERIFY(r.designTeams.empty());
        QVERIFY(!r.baselineFile);
        QCOMPARE(m_dialog->trialCountText(), QStringLiteral("1 design × 4 tasks × 2 seeds = 8 trials"));
    }

    void noDesignIsAnErrorAndNothingStarts()
    {
        QVERIFY(m_dialog->tasks()->select(QStringLiteral("mixed-small")));
        QVERIFY(!m_dialog->evaluate());
        QCOMPARE(m_dialog->errors()->text(),
                 QStringLiteral("Choose at least one design: check the open team or add team files"));
        QVERIFY(!m_controller->isRunning());
    }

    void coresSetupErrorsShowAndNothingStarts()
    {
        const QString file = m_dir.filePath(QStringLiteral("broken.team.json"));
        QFile out(file);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write("{\"conclave\": 1, \"name\": \"broken\", \"nodes\": [}\n");
        out.close();
        m_dialog->addDesignFiles({file});
        QCOMPARE(items(m_dialog->designs()), (QStringList{"broken — broken.team.json"}));
        QVERIFY(!m_dialog->evaluate());
        QVERIFY2(m_dialog->errors()->text().startsWith(file + QStringLiteral(":1:")),
                 qPrintable(m_dialog->errors()->text()));
        QVERIFY(m_dialog->errors()->isVisibleTo(m_dialog.get()));
        QVERIFY(!m_controller->isRunning());
        QVERIFY(m_controller->experimentId().isEmpty());
    }

    void runsOffTheGuiThreadToTheEnd()
    {
        fillSmallForm(*m_dialog);
        QSignalSpy results(m_dialog.get(), &EvaluateDialog::openResults);
        QSignalSpy progressed(m_controller.get(), &ExperimentController::progressed);
        QSignalSpy finished(m_controller.get(), &ExperimentController::finished);
        QVERIFY(m_dialog->evaluate());
        // It returned before the trials ran: they are the runner's thread's.
        QVERIFY(m_controller->isRunning());
        QVERIFY(!m_dialog->startButton()->isEnabled());
        QVERIFY(m_dialog->cancelButton()->isEnabled());
        QVERIFY(finished.wait(60000));
        QCOMPARE(word(finished.at(0).at(1).value<ExperimentStatus>()), word(ExperimentStatus::Finished));
        QVERIFY(progressed.count() >= 1);

        const QString id = m_controller->experimentId();
        QVERIFY(!id.isEmpty());
        QCOMPARE(m_dialog->progressBar()->value(), 16);
        QCOMPARE(m_dialog->progressBar()->maximum(), 16);
        QCOMPARE(m_dialog->status()->text(), QStringLiteral("Experiment %1 finished: 16 of 16 trials stored").arg(id));
        QCOMPARE(m_dialog->accuracy()->topLevelItemCount(), 2);
        // The figures `conclave eval` prints for the same experiment (the cascade under its own name).
        QCOMPARE(row(m_dialog->accuracy(), 0), (QStringList{"Cascade (edited)", "37.5%", "8"}));
        QCOMPARE(row(m_dialog->accuracy(), 1), (QStringList{"Triage: gate or decompose", "87.5%", "8"}));
        QVERIFY(m_dialog->startButton()->isEnabled());
        QVERIFY(!m_dialog->cancelButton()->isEnabled());
        QVERIFY(m_dialog->resultsButton()->isEnabled());
        QCOMPARE(results.count(), 1);
        QCOMPARE(results.at(0).at(0).toString(), id);

        // What is stored is the team as it was on screen, by its edited name.
        const auto report = m_runs->loadExperiment(id.toStdString());
        QVERIFY(report);
        QCOMPARE(report->trials.size(), size_t(16));
        QCOMPARE(report->record.designs, (std::vector<std::string>{"Cascade (edited)", "Triage: gate or decompose"}));
        QCOMPARE(report->record.name, std::string("dialog test"));
        QCOMPARE(report->summary.designs[0].overall.correct, int64_t(3));
        QCOMPARE(report->summary.designs[1].overall.correct, int64_t(7));

        // The same request again is the same experiment: nothing is left to run.
        QVERIFY(m_dialog->evaluate());
        QVERIFY(finished.wait(60000));
        QCOMPARE(m_controller->experimentId(), id);
        QCOMPARE(m_controller->lastOutcome().ran, int64_t(0));
        QCOMPARE(m_controller->lastOutcome().skipped, int64_t(16));
    }

    void cancelKeepsWhatFinishedAndResumeCompletesIt()
    {
        m_dialog->setOpenTeam(QStringLiteral("Keyword routing with a vote"), false,
                              [] { return team("keyword-vote"); });
        QVERIFY(m_dialog->tasks()->select(QStringLiteral("math")));
        m_dialog->seeds()->setValue(20); // 1,640 trials
        m_dialog->concurrency()->setValue(2);
        m_dialog->clock()->setCurrentIndex(m_dialog->clock()->findData(int(ClockRequest::Virtual)));
        QCOMPARE(m_dialog->trialCountText(), QStringLiteral("1 design × 82 tasks × 20 seeds = 1640 trials"));
        // Cancel Run as soon as the first progress shows.
        const auto canceller = connect(m_controller.get(), &ExperimentController::progressed, m_dialog.get(), [this] {
            if (m_controller->isRunning() && m_dialog->cancelButton()->isEnabled())
                m_dialog->cancelButton()->click();
        });
        QCOMPARE(runToTheEnd(*m_dialog, [](EvaluateDialog& d) { return d.evaluate(); }), QString());
        const QString id = m_controller->experimentId();
        QCOMPARE(word(m_controller->lastOutcome().status), word(ExperimentStatus::Cancelled));
        const auto done = m_controller->progress().done;
        QVERIFY2(done > 0 && done < 1640, qPrintable(QString::number(done)));
        QCOMPARE(m_dialog->status()->text(),
                 QStringLiteral("Experiment %1 cancelled: %2 of 1640 trials stored (cancelled in the studio: the "
                                "trials in flight were cancelled; the finished ones are kept)")
                     .arg(id)
                     .arg(done));
        auto report = m_runs->loadExperiment(id.toStdString());
        QVERIFY(report);
        QCOMPARE(word(report->record.status), word(ExperimentStatus::Cancelled));
        QCOMPARE(int64_t(report->trials.size()), done);

        disconnect(canceller);
        QCOMPARE(runToTheEnd(*m_dialog, [id](EvaluateDialog& d) { return d.resume(id); }), QString());
        QCOMPARE(m_controller->experimentId(), id);
        QCOMPARE(word(m_controller->lastOutcome().status), word(ExperimentStatus::Finished));
        QCOMPARE(m_controller->lastOutcome().skipped, done);
        QCOMPARE(m_controller->lastOutcome().ran, 1640 - done);
        QCOMPARE(m_dialog->progressBar()->value(), 1640);
        report = m_runs->loadExperiment(id.toStdString());
        QCOMPARE(report->trials.size(), size_t(1640));
        QCOMPARE(word(report->record.status), word(ExperimentStatus::Finished));

        // A finished experiment has nothing to resume.
        QVERIFY(!m_dialog->resume(id));
        QCOMPARE(m_dialog->errors()->text(), QStringLiteral("experiment %1 is finished; nothing to resume").arg(id));
    }

    void closingTheControllerCancelsItsRun()
    {
        m_dialog->setOpenTeam(QStringLiteral("Keyword routing with a vote"), false,
                              [] { return team("keyword-vote"); });
        QVERIFY(m_dialog->tasks()->select(QStringLiteral("math")));
        m_dialog->seeds()->setValue(50);
        m_dialog->clock()->setCurrentIndex(m_dialog->clock()->findData(int(ClockRequest::Real)));
        QVERIFY(m_dialog->evaluate());
        const std::string id = m_controller->experimentId().toStdString();
        m_dialog.reset();
        m_controller.reset(); // waits for the runner's thread
        const auto report = m_runs->loadExperiment(id);
        QVERIFY(report);
        QCOMPARE(word(report->record.status), word(ExperimentStatus::Cancelled));
        QVERIFY(report->trials.size() < size_t(82 * 50));
    }
};

QTEST_MAIN(TestEvaluateDialog)
#include "tst_evaluatedialog.moc"
