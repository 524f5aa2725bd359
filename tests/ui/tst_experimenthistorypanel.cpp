// ExperimentHistoryPanel over a store with two experiments: one run to the
// end (cascade and triage on three tasks of mixed-small, seeds 1 and 2, on
// the simulated clock: 12 trials) and one left interrupted before its first
// trial. Exact row texts, the buttons for each selection, exports that are
// exactly the report's text, the refusals' exact messages, a delete that
// takes the trial runs with it, and a double-click that opens the exact id.
#include <QtTest>

#include "support/EngineTestKit.h"

#include "run/ExperimentHistoryPanel.h"
#include "run/RunController.h"

#include "conclave/experiment/ExperimentReport.h"
#include "conclave/experiment/ExperimentRunner.h"
#include "conclave/experiment/StoredTrials.h"
#include "conclave/experiment/ExperimentSetup.h"
#include "conclave/store/RunStore.h"

#include <QLabel>
#include <QPushButton>
#include <QTemporaryDir>
#include <QTreeWidget>

#include <ctime>

using namespace conclave;
using namespace enginetest;
using conclave::ui::ExperimentHistoryPanel;
using conclave::ui::RunController;

namespace {

constexpr int64_t kInterruptedStartMs = 1709285400000; // 2024-03-01 09:30 UTC

std::string example(const std::string& name)
{
    return std::string(CONCLAVE_RESOURCES) + "/examples/" + name + ".team.json";
}

struct StoredExperiments {
    std::string finished;    // 12 of 12 trials
    std::string interrupted; // 0 of 2 trials
    QString error;
};

// Runs the finished experiment and saves the interrupted one into `store`.
StoredExperiments storeExperiments(Engine& engine, RunStore& store)
{
    StoredExperiments out;
    EvalRequest request;
    request.designFiles = {example("cascade"), example("triage")};
    request.taskset = "mixed-small";
    request.taskIds = {"code-031", "facts-078", "math-001"};
    request.seeds = {1, 2};
    request.clock = ClockRequest::Virtual;
    request.name = "history test";
    auto setup = ExperimentSetup::build(request, CONCLAVE_RESOURCES);
    if (!setup.spec) {
        out.error = q(setup.errors.front());
        return out;
    }
    StoredTrials runnerSink(store, StoredTrials::Keep::Runs);
    ExperimentRunner runner(engine, runnerSink, *setup.spec, {});
    const auto outcome = runner.run();
    if (!outcome.error.empty() || outcome.ran != 12) {
        out.error = QStringLiteral("the experiment ran %1 trials: %2").arg(outcome.ran).arg(q(outcome.error));
        return out;
    }
    out.finished = runner.id();

    EvalRequest other;
    other.designFiles = {example("keyword-vote")};
    other.taskset = "math";
    other.taskIds = {"math-001", "math-033"};
    other.clock = ClockRequest::Virtual;
    auto left = ExperimentSetup::build(other, CONCLAVE_RESOURCES);
    if (!left.spec) {
        out.error = q(left.errors.front());
        return out;
    }
    ExperimentRecord record;
    record.id = left.spec->id();
    record.name = "left behind";
    record.status = ExperimentStatus::Interrupted;
    record.specJson = left.spec->toJson().dump();
    record.designs = {left.spec->designs.front().name};
    record.taskset = left.spec->tasksetName;
    record.plannedTrials = 2;
    record.startedAtMs = kInterruptedStartMs;
    record.endedAtMs = kInterruptedStartMs + 60000;
    record.note = "the studio quit";
    auto e = store.saveExperiment(record);
    if (!e)
        e = store.flushTrials();
    if (e)
        out.error = q(*e);
    out.interrupted = record.id;
    return out;
}

QStringList rowTexts(const QTreeWidget* list, int row)
{
    QStringList texts;
    const auto* item = list->topLevelItem(row);
    for (int c = 0; c < list->columnCount(); ++c)
        texts << item->text(c);
    return texts;
}

QByteArray fileBytes(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

std::vector<RunSummary> trialRuns(RunController& controller)
{
    RunFilter filter;
    filter.includeTrials = true;
    return controller.listRuns(filter).value_or(std::vector<RunSummary>{});
}

} // namespace

class TestExperimentHistoryPanel : public QObject {
    Q_OBJECT

    EngineHarness m_h;
    QTemporaryDir m_dir;
    StoredExperiments m_stored;
    QString m_finished;
    QString m_interrupted;

    std::filesystem::path db() const { return m_dir.filePath("runs.sqlite").toStdString(); }

    static QPushButton* button(ExperimentHistoryPanel& panel, const char* name)
    {
        return panel.findChild<QPushButton*>(name);
    }
    // Open, Resume, Export, Delete.
    static QList<bool> enabled(ExperimentHistoryPanel& panel)
    {
        QList<bool> out;
        for (const char* name : {"experimentOpen", "experimentResume", "experimentExport", "experimentDelete"})
            out << button(panel, name)->isEnabled();
        return out;
    }

private slots:
    void initTestCase()
    {
        // The Started column is local time: make it the same everywhere.
        qputenv("TZ", "UTC");
        tzset();
        QVERIFY(m_h.init());
        auto opened = RunStore::open(db());
        QVERIFY2(opened.store, opened.error.c_str());
        m_stored = storeExperiments(m_h.engine(), *opened.store);
        QCOMPARE(m_stored.error, QString());
        m_finished = q(m_stored.finished);
        m_interrupted = q(m_stored.interrupted);
    }

    void rowsShowEachExperiment()
    {
        RunController controller({}, db());
        ExperimentHistoryPanel panel(&controller);
        QVERIFY(panel.refresh());
        QCOMPARE(panel.lastError(), QString());
        QCOMPARE(panel.findChild<QLabel*>("experimentCount")->text(), QStringLiteral("2 experiments"));
        const QTreeWidget* list = panel.list();
        QCOMPARE(list->objectName(), QStringLiteral("experimentList"));
        QCOMPARE(list->topLevelItemCount(), 2);
        QCOMPARE(panel.experiments().size(), size_t(2));

        // Newest first: the one just run, then the one of March 2024.
        const auto* finished = list->topLevelItem(0);
        QCOMPARE(finished->data(0, Qt::UserRole).toString(), m_finished);
        QCOMPARE(finished->toolTip(0), m_finished);
        const QString started =
            QDateTime::fromMSecsSinceEpoch(panel.experiments()[0].startedAtMs).toString("yyyy-MM-dd HH:mm");
        QCOMPARE(rowTexts(list, 0),
                 QStringList({"history test", "Cascade: tiny, mid, frontier, Triage: gate or decompose", "mixed-small",
                              "12/12", "finished", started}));
        QCOMPARE(finished->toolTip(1), QStringLiteral("Cascade: tiny, mid, frontier\nTriage: gate or decompose"));
        QCOMPARE(finished->toolTip(4), QString());

        const auto* interrupted = list->topLevelItem(1);
        QCOMPARE(interrupted->data(0, Qt::UserRole).toString(), m_interrupted);
        QCOMPARE(rowTexts(list, 1), QStringList({"left behind", "Keyword routing with a vote", "math", "0/2",
                                                 "interrupted", "2024-03-01 09:30"}));
        QCOMPARE(interrupted->toolTip(4), QStringLiteral("the studio quit"));
    }

    void buttonsFollowTheSelection()
    {
        RunController controller({}, db());
        ExperimentHistoryPanel panel(&controller);
        QVERIFY(panel.refresh());
        using B = QList<bool>; // Open, Resume, Export, Delete
        QCOMPARE(enabled(panel), B({false, false, false, false}));
        panel.selectIds({m_finished});
        QCOMPARE(panel.selectedIds(), QStringList{m_finished});
        QCOMPARE(enabled(panel), B({true, false, true, true})); // nothing left to resume
        panel.selectIds({m_interrupted});
        QCOMPARE(enabled(panel), B({true, true, true, true}));
        panel.list()->selectAll(); // through the view, as a click would
        QCOMPARE(panel.selectedIds(), QStringList({m_finished, m_interrupted}));
        QCOMPARE(enabled(panel), B({false, false, false, true}));

        // The studio's own running experiment is not resumed a second time.
        panel.selectIds({m_interrupted});
        panel.setRunningExperiment(m_interrupted);
        QCOMPARE(enabled(panel), B({true, false, true, true}));
        panel.setRunningExperiment({});
        QCOMPARE(enabled(panel), B({true, true, true, true}));

        QVERIFY(panel.refresh()); // keeps the selection by id
        QCOMPARE(panel.selectedIds(), QStringList{m_interrupted});
        QCOMPARE(enabled(panel), B({true, true, true, true}));
    }

    void buttonsAskForOpenAndResume()
    {
        RunController controller({}, db());
        ExperimentHistoryPanel panel(&controller);
        QVERIFY(panel.refresh());
        QSignalSpy open(&panel, &ExperimentHistoryPanel::openRequested);
        QSignalSpy resume(&panel, &ExperimentHistoryPanel::resumeRequested);
        panel.selectIds({m_interrupted});
        QTest::mouseClick(button(panel, "experimentOpen"), Qt::LeftButton);
        QTest::mouseClick(button(panel, "experimentResume"), Qt::LeftButton);
        QCOMPARE(open.count(), 1);
        QCOMPARE(open.at(0).at(0).toString(), m_interrupted);
        QCOMPARE(resume.count(), 1);
        QCOMPARE(resume.at(0).at(0).toString(), m_interrupted);
    }

    void doubleClickAndEnterOpen()
    {
        RunController controller({}, db());
        ExperimentHistoryPanel panel(&controller);
        panel.resize(900, 300);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QVERIFY(panel.refresh());
        QSignalSpy open(&panel, &ExperimentHistoryPanel::openRequested);
        QTreeWidget* list = panel.list();
        const QRect row = list->visualItemRect(list->topLevelItem(1));
        QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, row.center());
        QTest::mouseDClick(list->viewport(), Qt::LeftButton, {}, row.center());
        QCOMPARE(open.count(), 1);
        QCOMPARE(open.at(0).at(0).toString(), m_interrupted);

        list->setFocus();
        list->setCurrentItem(list->topLevelItem(0));
        QTest::keyClick(list, Qt::Key_Return);
        QCOMPARE(open.count(), 2);
        QCOMPARE(open.at(1).at(0).toString(), m_finished);
    }

    void exportWritesTheReportsText_data()
    {
        QTest::addColumn<QString>("format");
        QTest::newRow("markdown") << "md";
        QTest::newRow("csv") << "csv";
        QTest::newRow("json") << "json";
    }

    void exportWritesTheReportsText()
    {
        QFETCH(QString, format);
        RunController controller({}, db());
        ExperimentHistoryPanel panel(&controller);
        QVERIFY(panel.refresh());
        QSignalSpy status(&panel, &ExperimentHistoryPanel::statusMessage);
        QSignalSpy errors(&panel, &ExperimentHistoryPanel::errorOccurred);
        QTemporaryDir out;
        const QString path = out.filePath("report." + format);
        QString error;
        QVERIFY(panel.exportExperiment(m_finished, path, &error));
        QCOMPARE(error, QString());
        QCOMPARE(errors.count(), 0);
        QCOMPARE(status.count(), 1);
        QCOMPARE(status.at(0).at(0).toString(), QStringLiteral("Exported experiment %1 to %2").arg(m_finished, path));

        const auto report = controller.loadExperiment(m_stored.finished);
        QVERIFY(report);
        const auto expected = report->text(format.toStdString());
        QVERIFY(expected && !expected->empty());
        QCOMPARE(fileBytes(path), QByteArray::fromStdString(*expected));
    }

    void exportRefusesAnotherSuffix_data()
    {
        QTest::addColumn<QString>("name");
        QTest::newRow("txt") << "report.txt";
        QTest::newRow("none") << "report";
        QTest::newRow("jsonl") << "report.jsonl";
    }

    void exportRefusesAnotherSuffix()
    {
        QFETCH(QString, name);
        RunController controller({}, db());
        ExperimentHistoryPanel panel(&controller);
        QVERIFY(panel.refresh());
        QSignalSpy errors(&panel, &ExperimentHistoryPanel::errorOccurred);
        QTemporaryDir out;
        const QString path = out.filePath(name);
        QString error;
        QVERIFY(!panel.exportExperiment(m_finished, path, &error));
        const QString expected = path + ": the file name must end in .json, .csv or .md";
        QCOMPARE(error, expected);
        QCOMPARE(panel.lastError(), expected);
        QCOMPARE(errors.count(), 1);
        QCOMPARE(errors.at(0).at(0).toString(), expected);
        QVERIFY(!QFile::exists(path));
    }

    void theRunningExperimentIsNotDeleted()
    {
        RunController controller({}, db());
        ExperimentHistoryPanel panel(&controller);
        panel.setConfirmDeletes(false);
        QVERIFY(panel.refresh());
        panel.setRunningExperiment(m_finished);
        QSignalSpy deleted(&panel, &ExperimentHistoryPanel::experimentsDeleted);
        QSignalSpy errors(&panel, &ExperimentHistoryPanel::errorOccurred);
        QString error;
        // All refused, the other one too.
        QVERIFY(!panel.deleteExperiments({m_interrupted, m_finished}, &error));
        const QString expected = QStringLiteral("experiment %1 is still running; cancel it first").arg(m_finished);
        QCOMPARE(error, expected);
        QCOMPARE(errors.count(), 1);
        QCOMPARE(errors.at(0).at(0).toString(), expected);
        QCOMPARE(deleted.count(), 0);
        QCOMPARE(panel.list()->topLevelItemCount(), 2);
        QCOMPARE(controller.experiments()->size(), size_t(2));
        QCOMPARE(trialRuns(controller).size(), size_t(12));
    }

    void deleteTakesTheTrialRunsWithIt()
    {
        QTemporaryDir dir;
        const std::filesystem::path file = dir.filePath("runs.sqlite").toStdString();
        StoredExperiments stored;
        {
            auto opened = RunStore::open(file);
            QVERIFY(opened.store);
            stored = storeExperiments(m_h.engine(), *opened.store);
            QCOMPARE(stored.error, QString());
        }
        const QString finished = q(stored.finished);
        const QString interrupted = q(stored.interrupted);
        RunController controller({}, file);
        ExperimentHistoryPanel panel(&controller);
        QVERIFY(panel.refresh());
        QCOMPARE(trialRuns(controller).size(), size_t(12));
        QCOMPARE(panel.deleteQuestion({finished}), QStringLiteral("Delete 1 experiment with its 12 trial runs?"));
        QCOMPARE(panel.deleteQuestion({finished, interrupted}),
                 QStringLiteral("Delete 2 experiments with their 12 trial runs?"));

        QSignalSpy deleted(&panel, &ExperimentHistoryPanel::experimentsDeleted);
        QSignalSpy status(&panel, &ExperimentHistoryPanel::statusMessage);
        panel.setConfirmDeletes(false);
        panel.selectIds({finished});
        QTest::mouseClick(button(panel, "experimentDelete"), Qt::LeftButton);
        QCOMPARE(deleted.count(), 1);
        QCOMPARE(deleted.at(0).at(0).toStringList(), QStringList{finished});
        QCOMPARE(status.at(0).at(0).toString(), QStringLiteral("Deleted experiment %1").arg(finished));
        QCOMPARE(panel.list()->topLevelItemCount(), 1);
        QCOMPARE(panel.selectedIds(), QStringList());
        QCOMPARE(panel.findChild<QLabel*>("experimentCount")->text(), QStringLiteral("1 experiment"));
        QCOMPARE(trialRuns(controller).size(), size_t(0));

        QString error;
        QVERIFY(panel.deleteExperiments({interrupted}, &error));
        QCOMPARE(error, QString());
        QCOMPARE(deleted.count(), 2);
        QCOMPARE(panel.list()->topLevelItemCount(), 0);
        QCOMPARE(panel.findChild<QLabel*>("experimentCount")->text(), QStringLiteral("0 experiments"));
        QCOMPARE(controller.experiments()->size(), size_t(0));

        // Gone is gone: the store says so, and nothing else changes.
        QVERIFY(!panel.deleteExperiments({finished}, &error));
        QCOMPARE(error, QStringLiteral("no experiment \"%1\"").arg(finished));
        QCOMPARE(deleted.count(), 2);
    }

    void aMissingStoreListsNothing()
    {
        QTemporaryDir dir;
        RunController controller({}, (dir.path() + "/none.sqlite").toStdString());
        ExperimentHistoryPanel panel(&controller);
        QVERIFY(panel.refresh());
        QCOMPARE(panel.list()->topLevelItemCount(), 0);
        QCOMPARE(panel.findChild<QLabel*>("experimentCount")->text(), QStringLiteral("0 experiments"));
        QVERIFY(!QFile::exists(dir.path() + "/none.sqlite")); // reading never creates a store
    }

    void aStoreErrorShowsInTheCount()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("broken.sqlite");
        {
            QFile file(path);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write(QByteArray(4096, 'x'));
        }
        RunController controller({}, path.toStdString());
        ExperimentHistoryPanel panel(&controller);
        QSignalSpy errors(&panel, &ExperimentHistoryPanel::errorOccurred);
        QVERIFY(!panel.refresh());
        QVERIFY(!panel.lastError().isEmpty());
        QCOMPARE(errors.count(), 1);
        QCOMPARE(errors.at(0).at(0).toString(), panel.lastError());
        QCOMPARE(panel.findChild<QLabel*>("experimentCount")->text(), panel.lastError());
    }
};

QTEST_MAIN(TestExperimentHistoryPanel)
#include "tst_experimenthistorypanel.moc"
