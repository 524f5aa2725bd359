// The studio window's experiments, driven as a user drives them: Run >
// Evaluate Designs… (Ctrl+Shift+E) offering the open team, with or without
// its unsaved edits; an experiment run from the dialog opening its tab beside
// the canvas, its history row and its status message; the task matrix's
// double-click and Compare opening the exact runs in the run tabs below; the
// history's Open (once per experiment) and Delete (closing its tab); Cancel
// Run, then the history's Resume running it to the end; and the "Design" tab
// that never closes, wherever the style puts close buttons. Every experiment
// goes to a temporary store, on the simulated clock.
#include <QtTest>

#include "document/TeamDocument.h"
#include "editor/CanvasView.h"
#include "experiment/EvaluateDialog.h"
#include "experiment/ExperimentController.h"
#include "experiment/ExperimentView.h"
#include "experiment/TaskMatrixModel.h"
#include "experiment/TaskMatrixView.h"
#include "experiment/TaskSetPicker.h"
#include "run/ExperimentHistoryPanel.h"
#include "run/RunController.h"
#include "studio/MainWindow.h"
#include "studio/ShortRunId.h"
#include "timeline/CompareModel.h"
#include "timeline/CompareView.h"
#include "timeline/RunView.h"
#include "timeline/TimelineModel.h"

#include "conclave/store/RunStore.h"

#include <QApplication>
#include <QComboBox>
#include <QLabel>
#include <QListWidget>
#include <QProxyStyle>
#include <QPushButton>
#include <QSpinBox>
#include <QStandardPaths>
#include <QStatusBar>
#include <QStyleFactory>
#include <QTabBar>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTreeWidget>
#include <QUndoStack>

using namespace conclave;
using conclave::ui::EvaluateDialog;
using conclave::ui::ExperimentController;
using conclave::ui::ExperimentView;
using conclave::ui::MainWindow;
using conclave::ui::TaskMatrixModel;

namespace {

const QString kCascade = QStringLiteral("Cascade: tiny, mid, frontier");
const QString kTriage = QStringLiteral("Triage: gate or decompose");
// What the small experiment is named when the form leaves its name empty.
const QString kSmallName = kCascade + QStringLiteral(" vs ") + kTriage + QStringLiteral(" on mixed-small");

QString example(const QString& name)
{
    return QStringLiteral(CONCLAVE_RESOURCES "/examples/%1.team.json").arg(name);
}

QString word(ExperimentStatus status)
{
    return QString::fromUtf8(toString(status).data(), qsizetype(toString(status).size()));
}

QString qstr(const std::string& text)
{
    return QString::fromStdString(text);
}

QStringList items(const QListWidget* list)
{
    QStringList out;
    for (int i = 0; i < list->count(); ++i)
        out << list->item(i)->text();
    return out;
}

// A history row's name, designs, task set, trials and status (not its start time).
QStringList rowTexts(const QTreeWidget* list, int row)
{
    QStringList out;
    for (int c = 0; c < 5; ++c)
        out << list->topLevelItem(row)->text(c);
    return out;
}

QStringList tabTitles(const QTabWidget* tabs)
{
    QStringList out;
    for (int i = 0; i < tabs->count(); ++i)
        out << tabs->tabText(i);
    return out;
}

// The run of a trial of `report`.
RunId trialRun(const ExperimentReport& report, int design, const std::string& task, uint64_t seed)
{
    for (const auto& t : report.trials)
        if (t.design == design && t.task == task && t.seed == seed)
            return t.runId;
    return {};
}

// The close button of a tab, on whichever side the style put it.
QAbstractButton* closeButton(const QTabWidget* tabs, int index)
{
    auto* bar = tabs->tabBar();
    auto* button = bar->tabButton(index, QTabBar::RightSide);
    return qobject_cast<QAbstractButton*>(button ? button : bar->tabButton(index, QTabBar::LeftSide));
}

// Puts a tab's close button on its left, as the macOS style does.
class LeftCloseButtons : public QProxyStyle {
public:
    LeftCloseButtons() : QProxyStyle(QStyleFactory::create(QStringLiteral("Fusion"))) {}
    int styleHint(StyleHint hint, const QStyleOption* option, const QWidget* widget,
                  QStyleHintReturn* returned) const override
    {
        if (hint == SH_TabBar_CloseButtonPosition)
            return QTabBar::LeftSide;
        return QProxyStyle::styleHint(hint, option, widget, returned);
    }
};

// The window over a store of its own; the store goes after the window.
struct Studio {
    QTemporaryDir dir;
    MainWindow window;

    ExperimentController* controller() const { return window.experiments()->controller(); }
    ui::ExperimentHistoryPanel* history() const { return window.experimentHistory(); }
    QTreeWidget* historyList() const { return history()->list(); }
    QPushButton* historyButton(const char* name) const { return history()->findChild<QPushButton*>(name); }
    QString statusMessage() const { return window.statusBar()->currentMessage(); }
    ExperimentView* experimentTab(int index) const
    {
        return qobject_cast<ExperimentView*>(window.centreTabs()->widget(index));
    }

    // `team` open (non-interactively: no dialog asks anything), the window shown and active.
    QString prepare(const QString& team)
    {
        if (!dir.isValid() || !window.setRunStore(dir.filePath(QStringLiteral("runs.sqlite"))))
            return QStringLiteral("no run store: ") + window.lastError();
        if (!window.openFile(example(team), false))
            return QStringLiteral("cannot open %1: %2").arg(team, window.lastError());
        window.show();
        return activate();
    }

    QString activate()
    {
        window.activateWindow();
        return QTest::qWaitForWindowActive(&window) ? QString() : QStringLiteral("the window is not active");
    }

    // Ctrl+Shift+E on the window; the dialog it shows, or null.
    EvaluateDialog* pressEvaluate()
    {
        QTest::keyClick(&window, Qt::Key_E, Qt::ControlModifier | Qt::ShiftModifier);
        auto* dialog = window.findChild<EvaluateDialog*>();
        return dialog && dialog->isVisible() ? dialog : nullptr;
    }

    // Clicks `start` (the dialog's Evaluate, or the history's Resume) and waits for the experiment's end.
    QString runToTheEnd(QAbstractButton* start)
    {
        QSignalSpy finished(controller(), &ExperimentController::finished);
        QTest::mouseClick(start, Qt::LeftButton);
        if (!controller()->isRunning())
            return QStringLiteral("not started: ") + window.findChild<EvaluateDialog*>()->errors()->text();
        if (!finished.wait(60000))
            return QStringLiteral("did not finish");
        return {};
    }

    // From Ctrl+Shift+E: the open cascade and triage's file on 4 of
    // mixed-small's math tasks, seeds 1 and 2, simulated; Evaluate, to its end.
    QString evaluateSmall()
    {
        auto* d = pressEvaluate();
        if (!d)
            return QStringLiteral("Ctrl+Shift+E showed no dialog");
        d->addDesignFiles({example(QStringLiteral("triage"))});
        if (!d->tasks()->select(QStringLiteral("mixed-small")))
            return d->tasks()->error();
        auto* domain = d->tasks()->domainBox();
        domain->setCurrentIndex(domain->findData(QStringLiteral("math")));
        d->tasks()->sampleBox()->setValue(4);
        d->seeds()->setValue(2);
        d->clock()->setCurrentIndex(d->clock()->findData(int(ClockRequest::Virtual)));
        if (const QString count = d->trialCountText();
            count != QStringLiteral("2 designs × 4 tasks × 2 seeds = 16 trials"))
            return QStringLiteral("the form asks for ") + count;
        return runToTheEnd(d->startButton());
    }

    // Clicks the history's row `row` (on the dock's Experiments tab).
    QString clickHistoryRow(int row)
    {
        auto* tabs = window.findChild<QTabWidget*>(QStringLiteral("historyTabs"));
        tabs->setCurrentWidget(history());
        auto* list = historyList();
        const QRect rect = list->visualItemRect(list->topLevelItem(row));
        if (rect.isEmpty() || !list->viewport()->rect().contains(rect.center()))
            return QStringLiteral("history row %1 is not in sight").arg(row);
        QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, rect.center());
        return {};
    }
};

} // namespace

class TestExperimentActions : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        qRegisterMetaType<ExperimentStatus>();
    }

    // A style a test set goes with it.
    void cleanup() { QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion"))); }

    void theActionOffersTheOpenTeamAsItIs()
    {
        Studio s;
        QCOMPARE(s.prepare(QStringLiteral("cascade")), QString());
        auto* action = s.window.action(QStringLiteral("actionEvaluate"));
        QVERIFY(action);
        QCOMPARE(action->text(), QStringLiteral("&Evaluate Designs…"));
        QCOMPARE(action->shortcut(), QKeySequence(QStringLiteral("Ctrl+Shift+E")));
        QVERIFY(!s.window.findChild<EvaluateDialog*>()); // made on first use

        auto* dialog = s.pressEvaluate();
        QVERIFY(dialog);
        QCOMPARE(items(dialog->designs()), QStringList{kCascade + QStringLiteral(" (open team)")});
        QCOMPARE(dialog->baseline()->currentText(), kCascade + QStringLiteral(" (open team)"));

        // An edit, and the dialog shown again: the same one, saying the team has unsaved edits.
        dialog->close();
        QCOMPARE(s.activate(), QString());
        QVERIFY(s.window.document()->requestRename(NodeId("tiny"), NodeId("small")));
        QVERIFY(s.window.document()->isModified());
        QCOMPARE(s.pressEvaluate(), dialog);
        QCOMPARE(items(dialog->designs()), QStringList{kCascade + QStringLiteral(" (open team, with unsaved edits)")});

        // Undone, it is the file's team again.
        dialog->close();
        QCOMPARE(s.activate(), QString());
        s.window.document()->undoStack()->undo();
        QVERIFY(!s.window.document()->isModified());
        QCOMPARE(s.pressEvaluate(), dialog);
        QCOMPARE(items(dialog->designs()), QStringList{kCascade + QStringLiteral(" (open team)")});

        // Left open, it follows the document: an edit, then its undo.
        QVERIFY(s.window.document()->requestRename(NodeId("tiny"), NodeId("small")));
        QCOMPARE(items(dialog->designs()), QStringList{kCascade + QStringLiteral(" (open team, with unsaved edits)")});
        s.window.document()->undoStack()->undo();
        QCOMPARE(items(dialog->designs()), QStringList{kCascade + QStringLiteral(" (open team)")});
    }

    void anExperimentOpensItsTabAndItsHistoryRow()
    {
        Studio s;
        QCOMPARE(s.prepare(QStringLiteral("cascade")), QString());
        QCOMPARE(s.evaluateSmall(), QString());
        const QString id = s.controller()->experimentId();
        QCOMPARE(word(s.controller()->lastOutcome().status), word(ExperimentStatus::Finished));
        const auto stored = s.window.runController()->loadExperiment(id.toStdString());
        QVERIFY(stored);
        QCOMPARE(qstr(stored->record.name), kSmallName);

        auto* centre = s.window.centreTabs();
        QCOMPARE(tabTitles(centre), (QStringList{"Design", "Experiment · " + kSmallName}));
        QCOMPARE(centre->currentIndex(), 1);
        auto* view = s.experimentTab(1);
        QVERIFY(view);
        QCOMPARE(qstr(view->report().record.id), id);
        QCOMPARE(view->report().trials.size(), size_t(16));
        QCOMPARE(centre->tabToolTip(1), ExperimentView::headerText(*stored));

        auto* historyTabs = s.window.findChild<QTabWidget*>(QStringLiteral("historyTabs"));
        QVERIFY(historyTabs);
        QCOMPARE(historyTabs->tabText(1), QStringLiteral("Experiments"));
        QCOMPARE(historyTabs->widget(1), s.history());
        QCOMPARE(s.historyList()->topLevelItemCount(), 1);
        QCOMPARE(rowTexts(s.historyList(), 0),
                 (QStringList{kSmallName, kCascade + ", " + kTriage, "mixed-small", "16/16", "finished"}));
        QCOMPARE(s.statusMessage(), QStringLiteral("Experiment %1 finished").arg(id));

        // The canvas's tab stays, beside an experiment's too.
        emit centre->tabCloseRequested(0);
        QCOMPARE(centre->count(), 2);
        QCOMPARE(centre->widget(0), s.window.canvas());
    }

    void theMatrixDrillsDownIntoTheRunTabs()
    {
        Studio s;
        QCOMPARE(s.prepare(QStringLiteral("cascade")), QString());
        QCOMPARE(s.evaluateSmall(), QString());
        auto* view = s.experimentTab(1);
        QVERIFY(view);
        QTRY_VERIFY(view->isVisible());
        QCoreApplication::processEvents(); // its layout, and with it the chart's place
        view->lowerTabs()->setCurrentWidget(view->matrix());
        auto* table = view->matrix()->table();
        const auto* model = view->matrix()->model();
        QCOMPARE(model->rowCount(), 4);
        const std::string task = model->row(0)->task;
        const RunId cascadeRun = trialRun(view->report(), 0, task, 1);
        const RunId triageRun = trialRun(view->report(), 1, task, 1);
        QVERIFY(!cascadeRun.empty() && !triageRun.empty());

        // A double-click on the cascade's cell: its first seed's run, below the canvas.
        const QRect cell = table->visualRect(model->index(0, TaskMatrixModel::FirstDesignColumn));
        QVERIFY(!cell.isEmpty() && table->viewport()->rect().contains(cell.center()));
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, cell.center());
        QTest::mouseDClick(table->viewport(), Qt::LeftButton, {}, cell.center());
        auto* runTabs = s.window.runTabs();
        QCOMPARE(tabTitles(runTabs), QStringList{"Run " + ui::shortRunId(cascadeRun)});
        auto* runView = qobject_cast<ui::RunView*>(runTabs->widget(0));
        QVERIFY(runView);
        QCOMPARE(qstr(runView->timelineModel()->run().summary.id.str()), qstr(cascadeRun.str()));

        // Both designs' cells of that task, and Compare: the two runs of seed 1, cascade's first.
        auto* selection = table->selectionModel();
        selection->clearSelection();
        selection->select(model->index(0, TaskMatrixModel::FirstDesignColumn), QItemSelectionModel::Select);
        selection->select(model->index(0, TaskMatrixModel::FirstDesignColumn + 1), QItemSelectionModel::Select);
        QVERIFY(view->matrix()->compareButton()->isEnabled());
        QTest::mouseClick(view->matrix()->compareButton(), Qt::LeftButton);
        QCOMPARE(tabTitles(runTabs),
                 (QStringList{"Run " + ui::shortRunId(cascadeRun),
                              "Compare " + ui::shortRunId(cascadeRun) + " · " + ui::shortRunId(triageRun)}));
        QCOMPARE(runTabs->currentIndex(), 1);
        auto* compare = qobject_cast<ui::CompareView*>(runTabs->widget(1));
        QVERIFY(compare);
        QCOMPARE(qstr(compare->model()->timelineA()->run().summary.id.str()), qstr(cascadeRun.str()));
        QCOMPARE(qstr(compare->model()->timelineB()->run().summary.id.str()), qstr(triageRun.str()));
        QCOMPARE(s.window.centreTabs()->count(), 2); // the experiment's tab stays above them
    }

    void theHistoryOpensOnceAndDeletesWithItsTab()
    {
        Studio s;
        QCOMPARE(s.prepare(QStringLiteral("cascade")), QString());
        QCOMPARE(s.evaluateSmall(), QString());
        const QString id = s.controller()->experimentId();
        auto* centre = s.window.centreTabs();
        QCOMPARE(centre->count(), 2);

        // Its tab closed by its close button, then Open on its row: open again, current.
        auto* close = closeButton(centre, 1);
        QVERIFY(close);
        QTest::mouseClick(close, Qt::LeftButton);
        QCOMPARE(tabTitles(centre), QStringList{"Design"});
        QCOMPARE(s.clickHistoryRow(0), QString());
        QCOMPARE(s.history()->selectedIds(), QStringList{id});
        auto* open = s.historyButton("experimentOpen");
        QVERIFY(open && open->isEnabled());
        QTest::mouseClick(open, Qt::LeftButton);
        QCOMPARE(tabTitles(centre), (QStringList{"Design", "Experiment · " + kSmallName}));
        QCOMPARE(centre->currentIndex(), 1);
        auto* view = s.experimentTab(1);
        QVERIFY(view);
        QCOMPARE(qstr(view->report().record.id), id);
        QCOMPARE(view->report().trials.size(), size_t(16));

        // Open while it is open shows the same tab, and no second one.
        centre->setCurrentIndex(0);
        QTest::mouseClick(open, Qt::LeftButton);
        QCOMPARE(centre->count(), 2);
        QCOMPARE(centre->currentWidget(), view);

        // Delete: its tab closes with it, and the list is empty.
        s.history()->setConfirmDeletes(false);
        auto* remove = s.historyButton("experimentDelete");
        QVERIFY(remove && remove->isEnabled());
        QTest::mouseClick(remove, Qt::LeftButton);
        QCOMPARE(tabTitles(centre), QStringList{"Design"});
        QCOMPARE(centre->currentWidget(), s.window.canvas());
        QCOMPARE(s.historyList()->topLevelItemCount(), 0);
        QVERIFY(s.history()->experiments().empty());
        QCOMPARE(s.statusMessage(), QStringLiteral("Deleted experiment %1").arg(id));
    }

    void cancelThenTheHistorysResumeRunsItToTheEnd()
    {
        Studio s;
        QCOMPARE(s.prepare(QStringLiteral("keyword-vote")), QString());
        auto* d = s.pressEvaluate();
        QVERIFY(d);
        QVERIFY(d->tasks()->select(QStringLiteral("math")));
        d->seeds()->setValue(20);
        d->concurrency()->setValue(2);
        d->clock()->setCurrentIndex(d->clock()->findData(int(ClockRequest::Virtual)));
        QCOMPARE(d->trialCountText(), QStringLiteral("1 design × 82 tasks × 20 seeds = 1640 trials"));
        // Cancel Run at the first progress.
        const auto canceller = connect(s.controller(), &ExperimentController::progressed, d, [&s, d] {
            if (s.controller()->isRunning() && d->cancelButton()->isEnabled())
                QTest::mouseClick(d->cancelButton(), Qt::LeftButton);
        });
        QCOMPARE(s.runToTheEnd(d->startButton()), QString());
        disconnect(canceller);
        const QString id = s.controller()->experimentId();
        QCOMPARE(word(s.controller()->lastOutcome().status), word(ExperimentStatus::Cancelled));
        const int64_t done = s.controller()->progress().done;
        QVERIFY2(done > 0 && done < 1640, qPrintable(QString::number(done)));
        QCOMPARE(s.statusMessage(), QStringLiteral("Experiment %1 cancelled: cancelled in the studio: the trials in "
                                                   "flight were cancelled; the finished ones are kept")
                                        .arg(id));
        const QString name = QStringLiteral("Keyword routing with a vote on math");
        const QStringList cancelledRow{name, "Keyword routing with a vote", "math", QStringLiteral("%1/1640").arg(done),
                                       "cancelled"};
        QCOMPARE(s.historyList()->topLevelItemCount(), 1);
        QCOMPARE(rowTexts(s.historyList(), 0), cancelledRow);
        // What finished is shown in its tab already.
        auto* centre = s.window.centreTabs();
        QCOMPARE(tabTitles(centre), (QStringList{"Design", "Experiment · " + name}));
        auto* view = s.experimentTab(1);
        QVERIFY(view);
        QCOMPARE(int64_t(view->report().trials.size()), done);

        // The row selected, Resume: the dialog runs the rest.
        QCOMPARE(s.clickHistoryRow(0), QString());
        auto* resume = s.historyButton("experimentResume");
        QVERIFY(resume && resume->isEnabled());
        QCOMPARE(s.runToTheEnd(resume), QString());
        QCOMPARE(s.controller()->experimentId(), id);
        QCOMPARE(word(s.controller()->lastOutcome().status), word(ExperimentStatus::Finished));
        QCOMPARE(s.controller()->lastOutcome().skipped, done);
        QCOMPARE(s.controller()->lastOutcome().ran, 1640 - done);
        QCOMPARE(s.historyList()->topLevelItemCount(), 1);
        QCOMPARE(rowTexts(s.historyList(), 0),
                 (QStringList{name, "Keyword routing with a vote", "math", "1640/1640", "finished"}));
        QVERIFY(!resume->isEnabled()); // nothing is left to resume
        QCOMPARE(s.statusMessage(), QStringLiteral("Experiment %1 finished").arg(id));

        // The same tab, showing it all now, its tool tip too.
        QCOMPARE(centre->count(), 2);
        QCOMPARE(s.experimentTab(1), view);
        QCOMPARE(view->report().trials.size(), size_t(1640));
        QCOMPARE(word(view->report().record.status), word(ExperimentStatus::Finished));
        QCOMPARE(centre->tabToolTip(1), ExperimentView::headerText(view->report()));
    }

    // Closing the window mid-experiment: the runner's thread is stopped and
    // joined before the store it writes to goes (the run controller's store
    // is destroyed before the experiment controller, its sibling).
    void closingTheWindowMidExperimentStopsItBeforeItsStoreGoes()
    {
        QTemporaryDir dir;
        const QString db = dir.filePath(QStringLiteral("runs.sqlite"));
        QString id;
        {
            auto window = std::make_unique<MainWindow>();
            QVERIFY(window->setRunStore(db));
            QVERIFY(window->openFile(example(QStringLiteral("keyword-vote")), false));
            auto* controller = window->experiments()->controller();
            EvalRequest request;
            request.designFiles = {example(QStringLiteral("keyword-vote")).toStdString()};
            request.taskset = "math";
            request.seeds.clear();
            for (uint64_t seed = 1; seed <= 20; ++seed)
                request.seeds.push_back(seed);
            request.clock = ClockRequest::Virtual;
            auto setup = controller->prepare(request);
            QVERIFY(setup.spec);
            QSignalSpy progressed(controller, &ExperimentController::progressed);
            QVERIFY(controller->run(std::move(*setup.spec), {2, std::nullopt}));
            id = controller->experimentId();
            QVERIFY(progressed.wait(30000));
            QVERIFY(controller->isRunning());
        } // the window closes here, mid-experiment

        auto opened = RunStore::open(db.toStdString());
        QVERIFY(opened.store);
        std::string error;
        auto reader = opened.store->reader(error);
        const auto record = reader->experiment(id.toStdString(), error);
        QVERIFY2(record, error.c_str());
        QCOMPARE(word(record->status), word(ExperimentStatus::Cancelled));
        QCOMPARE(qstr(record->note), QStringLiteral("the studio was closed: the trials in flight were cancelled"));
        QVERIFY(record->storedTrials > 0 && record->storedTrials < 1640);
        RunFilter all;
        all.includeTrials = true;
        QCOMPARE(*reader->count(all, error), record->storedTrials); // no run without its trial
    }

    void theDesignTabNeverCloses_data()
    {
        QTest::addColumn<bool>("closeOnTheLeft");
        QTest::newRow("close buttons on the right (Fusion)") << false;
        QTest::newRow("close buttons on the left (as macOS)") << true;
    }

    void theDesignTabNeverCloses()
    {
        QFETCH(bool, closeOnTheLeft);
        if (closeOnTheLeft)
            QApplication::setStyle(new LeftCloseButtons);
        Studio s;
        QCOMPARE(s.prepare(QStringLiteral("cascade")), QString());
        auto* centre = s.window.centreTabs();
        QVERIFY(centre->tabsClosable());
        QCOMPARE(centre->tabBar()->tabButton(0, QTabBar::LeftSide), nullptr);
        QCOMPARE(centre->tabBar()->tabButton(0, QTabBar::RightSide), nullptr);
        emit centre->tabCloseRequested(0);
        QCOMPARE(tabTitles(centre), QStringList{"Design"});
        QCOMPARE(centre->widget(0), s.window.canvas());
    }
};

QTEST_MAIN(TestExperimentActions)
#include "tst_experimentactions.moc"
