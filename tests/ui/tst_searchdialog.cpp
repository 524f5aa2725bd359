// Run > Search Designs…: the open team's proposed space in the table (core's
// SpaceProposal, exactly), an edited bad value showing SearchSpace's own
// error on its row, a small fixed-seed search on the SearchController ending
// with an exact front (table, chart, team files), Stop and closing the dialog
// ending a search with its front so far, a found design opening as a tab
// beside the canvas (and from there as the open team), and its comparison
// with the open team running as an experiment on the search's test tasks.
#include <QtTest>

#include "document/TeamDocument.h"
#include "editor/CanvasView.h"
#include "experiment/EvaluateDialog.h"
#include "experiment/ExperimentController.h"
#include "experiment/TaskSetPicker.h"
#include "run/RunController.h"
#include "search/DesignTab.h"
#include "search/SearchController.h"
#include "search/SearchDialog.h"
#include "search/SearchFrontChart.h"
#include "search/SearchFrontTable.h"
#include "search/SpaceTable.h"
#include "studio/MainWindow.h"

#include "conclave/io/TeamFile.h"
#include "conclave/search/SpaceProposal.h"

#include <QAction>
#include <QElapsedTimer>
#include <QGraphicsSimpleTextItem>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>

#include <filesystem>

using namespace conclave;
using conclave::ui::DesignTab;
using conclave::ui::MainWindow;
using conclave::ui::SearchController;
using conclave::ui::SearchDialog;
using conclave::ui::SpaceTable;

Q_DECLARE_METATYPE(conclave::DesignSearch::Status)

namespace {

// The front of triage's proposed space on mixed-small (25 tasks: 14 search, 7 validation, 4 test) with a
// budget of 1000 search trials (two generations of 32 candidates on one rung of 14 tasks), seed 1, as
// `conclave search` finds it with the same space and options.
constexpr int kSmallBudget = 1000;
constexpr int kSmallFront = 3; // #55, #56 and #58

QString example(const QString& name)
{
    return QStringLiteral(CONCLAVE_RESOURCES "/examples/%1.team.json").arg(name);
}

// The window over a store of its own, triage open (non-interactively: nothing asks).
struct Studio {
    QTemporaryDir dir;
    MainWindow window;

    QString prepare()
    {
        if (!dir.isValid() || !window.setRunStore(dir.filePath(QStringLiteral("runs.sqlite"))))
            return QStringLiteral("no run store: ") + window.lastError();
        if (!window.openFile(example(QStringLiteral("triage")), false))
            return QStringLiteral("cannot open triage: ") + window.lastError();
        window.show();
        return {};
    }

    // Run > Search Designs…, as the menu triggers it.
    SearchDialog* openDialog()
    {
        window.action(QStringLiteral("actionSearchDesigns"))->trigger();
        auto* dialog = window.findChild<SearchDialog*>();
        return dialog && dialog->isVisible() ? dialog : nullptr;
    }

    SearchController* controller() const { return window.searches()->controller(); }

    // A search of `budget` trials on `taskset`, started from the dialog's Start.
    QString start(SearchDialog* dialog, const QString& taskset, int budget)
    {
        if (!dialog->tasks()->select(taskset))
            return dialog->tasks()->error();
        dialog->budget()->setValue(budget);
        dialog->seed()->setValue(1);
        QTest::mouseClick(dialog->startButton(), Qt::LeftButton);
        if (!controller()->isRunning())
            return QStringLiteral("not started: ") + dialog->errors()->text();
        return {};
    }

    QString runToTheEnd(SearchDialog* dialog, const QString& taskset, int budget)
    {
        QSignalSpy finished(controller(), &SearchController::finished);
        if (const QString e = start(dialog, taskset, budget); !e.isEmpty())
            return e;
        if (!finished.wait(120000))
            return QStringLiteral("did not finish");
        return {};
    }
};

QStringList rowsOf(const QTableWidget* table)
{
    QStringList out;
    for (int r = 0; r < table->rowCount(); ++r)
        out << table->item(r, SpaceTable::PathColumn)->text() + QLatin1Char('=') +
                   table->item(r, SpaceTable::ValuesColumn)->text();
    return out;
}

} // namespace

class TestSearchDialog : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        qRegisterMetaType<DesignSearch::Status>();
    }

    void theRunMenuOffersItAfterTrainRouter()
    {
        Studio s;
        QCOMPARE(s.prepare(), QString());
        QMenu* run = nullptr;
        for (auto* action : s.window.menuBar()->actions()) {
            if (action->text() == QStringLiteral("&Run"))
                run = action->menu();
        }
        QVERIFY(run);
        QStringList names;
        for (auto* action : run->actions())
            names << action->objectName();
        const auto at = names.indexOf(QStringLiteral("actionSearchDesigns"));
        QVERIFY(at > 0);
        QCOMPARE(names[at - 1], QStringLiteral("actionTrainRouter"));
        QCOMPARE(run->actions()[at]->text(), QStringLiteral("Search &Designs…"));
    }

    // The table is core's proposal for the open team, row for row, every row checked, with its value count.
    void theProposedSpaceFillsTheTable()
    {
        Studio s;
        QCOMPARE(s.prepare(), QString());
        auto* dialog = s.openDialog();
        QVERIFY(dialog);
        const auto loaded = loadTeamFile(example(QStringLiteral("triage")).toStdString());
        QVERIFY(loaded.team);
        const auto flags = SpaceProposal::flags(*loaded.team, CONCLAVE_RESOURCES "/examples",
                                                s.window.runController()->resources().localModels);
        QCOMPARE(flags.size(), size_t(13));
        QStringList expected;
        for (const auto& f : flags)
            expected << QString::fromStdString(f);
        auto* table = dialog->space()->table();
        QCOMPARE(rowsOf(table), expected);
        QCOMPARE(table->item(1, SpaceTable::PathColumn)->text(), QStringLiteral("gate.top_k"));
        QCOMPARE(table->item(1, SpaceTable::ValuesColumn)->text(), QStringLiteral("1:4:1"));
        QCOMPARE(table->item(1, SpaceTable::CountColumn)->text(), QStringLiteral("4"));
        QCOMPARE(table->item(7, SpaceTable::CountColumn)->text(), QStringLiteral("10")); // best.min_confidence
        for (int r = 0; r < table->rowCount(); ++r)
            QVERIFY(table->item(r, SpaceTable::PathColumn)->checkState() == Qt::Checked);
        QCOMPARE(dialog->space()->error(), QString());
        QVERIFY(dialog->space()->space());
        // (values + the team's own) multiplied: 6^9 × 5 × 8 × 11 × 4.
        QCOMPARE(dialog->space()->space()->size(), 17736744960.0);
        QVERIFY(dialog->startButton()->isEnabled());
        QVERIFY(!dialog->stopButton()->isEnabled());
    }

    // An edit is checked at once: SearchSpace's error word for word, its row marked, Start refused; unchecking
    // the row clears it; Reset brings the proposal back.
    void anEditedBadValueShowsItsExactError()
    {
        Studio s;
        QCOMPARE(s.prepare(), QString());
        auto* dialog = s.openDialog();
        QVERIFY(dialog);
        auto* space = dialog->space();
        auto* table = space->table();
        table->item(1, SpaceTable::ValuesColumn)->setText(QStringLiteral("0:3:1"));
        const QString expected =
            QStringLiteral("/parameters/1: --vary: variant \"Triage: gate or decompose [gate.top_k=0]\": "
                           "/nodes/2/top_k: expected an integer of at least 1, got 0");
        QCOMPARE(space->error(), expected);
        QCOMPARE(space->errorLabel()->text(), expected);
        QVERIFY(!space->errorLabel()->isHidden());
        QCOMPARE(space->errorRow(), 1);
        QCOMPARE(table->item(1, SpaceTable::ValuesColumn)->toolTip(), expected);
        QVERIFY(!space->space());
        QVERIFY(!dialog->startButton()->isEnabled());
        // The same error SearchSpace gives for the same flags.
        std::string error;
        const auto loaded = loadTeamFile(example(QStringLiteral("triage")).toStdString());
        QVERIFY(!SearchSpace::fromFlags(space->flags(), {SearchBase{"", "", *loaded.team}}, error));
        QCOMPARE(QString::fromStdString(error), expected);

        // A bad value of a row further down is named by its place among the checked rows.
        table->item(0, SpaceTable::PathColumn)->setCheckState(Qt::Unchecked);
        QCOMPARE(space->errorRow(), 1);
        QVERIFY(space->error().startsWith(QStringLiteral("/parameters/0: ")));
        table->item(1, SpaceTable::PathColumn)->setCheckState(Qt::Unchecked);
        QCOMPARE(space->error(), QString());
        QCOMPARE(space->errorRow(), -1);
        QVERIFY(space->errorLabel()->isHidden());
        QCOMPARE(int(space->flags().size()), 11);

        QTest::mouseClick(space->resetButton(), Qt::LeftButton);
        QCOMPARE(int(space->flags().size()), 13);
        QCOMPARE(table->item(1, SpaceTable::ValuesColumn)->text(), QStringLiteral("1:4:1"));
        QVERIFY(dialog->startButton()->isEnabled());
    }

    void aFormThatDoesNotReadStartsNothing()
    {
        Studio s;
        QCOMPARE(s.prepare(), QString());
        auto* dialog = s.openDialog();
        QVERIFY(dialog);
        dialog->split()->setText(QStringLiteral("0.5/0.5"));
        QVERIFY(!dialog->start());
        QCOMPARE(dialog->errors()->text(),
                 QStringLiteral("split: a search's split has three parts (search/validation/test), not 2"));
        QVERIFY(!s.controller()->isRunning());
    }

    // Triage's proposed space on mixed-small, 1000 search trials, seed 1: an exact front, in the table (after the
    // base as drawn) and the chart (with the base's square), its team files written beside the store.
    void aSmallSearchEndsWithAnExactFront()
    {
        Studio s;
        QCOMPARE(s.prepare(), QString());
        auto* dialog = s.openDialog();
        QVERIFY(dialog);
        QSignalSpy progressed(s.controller(), &SearchController::progressed);
        QCOMPARE(s.runToTheEnd(dialog, QStringLiteral("mixed-small"), kSmallBudget), QString());
        const auto& result = s.controller()->result();
        QVERIFY(result);
        QVERIFY(result->status == DesignSearch::Status::Finished);
        QCOMPARE(result->parts.search.size(), size_t(14));
        QCOMPARE(result->parts.validation.size(), size_t(7));
        QCOMPARE(result->parts.test.size(), size_t(4));
        QCOMPARE(result->rungTasks, std::vector<size_t>{14});
        QCOMPARE(int(result->front.size()), kSmallFront);
        // What `conclave search triage.team.json --space SPACE --taskset mixed-small --budget-trials 1000 --seed 1`
        // finds: the same search (its id), the same 896 search trials, the same front.
        QCOMPARE(s.controller()->searchId(), QStringLiteral("s-a851e4d4d010"));
        QCOMPARE(result->searchTrials, int64_t(896));
        QCOMPARE(result->front, (std::vector<int>{55, 56, 58}));
        QVERIFY(result->searchTrials <= kSmallBudget);
        QVERIFY(progressed.count() >= 1);
        QCOMPARE(s.controller()->progress().trials,
                 result->searchTrials + result->validationTrials + result->testTrials);

        auto* table = dialog->frontTable();
        QCOMPARE(table->frontCount(), kSmallFront);
        QCOMPARE(table->rowCount(), kSmallFront + 1);
        QCOMPARE(table->item(0, ui::SearchFrontTable::IdColumn)->text(), QStringLiteral("base"));
        QCOMPARE(table->item(0, ui::SearchFrontTable::DeltaColumn)->text(), QStringLiteral("base"));
        QCOMPARE(table->selectedFront(), 0);
        QCOMPARE(int(dialog->frontChart()->dots().size()), kSmallFront + 1);
        QCOMPARE(int(dialog->frontChart()->labels().size()), kSmallFront + 1);
        QCOMPARE(dialog->frontChart()->labels().front()->text(), QStringLiteral("base"));
        QVERIFY(dialog->frontChart()->dots().front().base);
        QVERIFY(dialog->frontChart()->caption()->text().startsWith(
            QStringLiteral("Front measured once on the %1 test tasks, simulated").arg(result->parts.test.size())));
        QVERIFY(dialog->status()->text().contains(QStringLiteral("(simulated)")));
        QVERIFY(dialog->openButton()->isEnabled());
        QVERIFY(dialog->compareButton()->isEnabled());
        QVERIFY(dialog->startButton()->isEnabled());
        QVERIFY(!dialog->stopButton()->isEnabled());

        const auto dir = s.controller()->outputDir();
        QCOMPARE(QString::fromStdString(dir.parent_path().string()), s.dir.filePath(QStringLiteral("searches")));
        int teams = 0;
        for (const auto& entry : std::filesystem::directory_iterator(dir))
            teams += entry.path().string().ends_with(".team.json") ? 1 : 0;
        QCOMPARE(teams, kSmallFront);
        QVERIFY(std::filesystem::exists(dir / "space.json"));
        QVERIFY(QString::fromStdString(s.controller()->command())
                    .startsWith(QStringLiteral("conclave search ") + example(QStringLiteral("triage"))));
    }

    // The search reports after every rung; the GUI hears of it at most once every kProgressMs (real clock), and
    // hears the last one, with every trial counted, before finished().
    void progressIsCoalesced()
    {
        Studio s;
        QCOMPARE(s.prepare(), QString());
        auto* dialog = s.openDialog();
        QVERIFY(dialog);
        QElapsedTimer clock;
        std::vector<qint64> at;
        int afterFinished = 0;
        bool ended = false;
        connect(s.controller(), &SearchController::progressed, this, [&] {
            at.push_back(clock.elapsed());
            afterFinished += ended ? 1 : 0;
        });
        connect(s.controller(), &SearchController::finished, this, [&] { ended = true; });
        clock.start();
        QCOMPARE(s.runToTheEnd(dialog, QStringLiteral("math"), 6000), QString());
        QVERIFY(at.size() >= 2);
        QCOMPARE(s.controller()->progressUpdates(), int(at.size()));
        for (size_t i = 1; i + 1 < at.size(); ++i) // the last one comes with the end, held back or not
            QVERIFY2(at[i] - at[i - 1] >= SearchController::kProgressMs,
                     qPrintable(QString::number(at[i] - at[i - 1])));
        QCOMPARE(afterFinished, 0);
        const auto& result = *s.controller()->result();
        QCOMPARE(s.controller()->progress().trials, result.searchTrials + result.validationTrials + result.testTrials);
        QCOMPARE(s.controller()->progress().phase, std::string("test"));
    }

    // Stop ends a long search after the batch in flight: stopped, with its front so far and no team files.
    void stopEndsASearch()
    {
        Studio s;
        QCOMPARE(s.prepare(), QString());
        auto* dialog = s.openDialog();
        QVERIFY(dialog);
        QSignalSpy finished(s.controller(), &SearchController::finished);
        QSignalSpy progressed(s.controller(), &SearchController::progressed);
        QCOMPARE(s.start(dialog, QStringLiteral("math"), 5000000), QString());
        QVERIFY(dialog->stopButton()->isEnabled());
        QVERIFY(!dialog->startButton()->isEnabled());
        QVERIFY(progressed.wait(60000));
        QTest::mouseClick(dialog->stopButton(), Qt::LeftButton);
        QVERIFY(!dialog->stopButton()->isEnabled());
        QVERIFY(finished.wait(60000));
        QCOMPARE(finished.count(), 1);
        QVERIFY(finished.first().first().value<DesignSearch::Status>() == DesignSearch::Status::Stopped);
        const auto& result = *s.controller()->result();
        QCOMPARE(QString::fromStdString(result.note),
                 QStringLiteral("stopped in the studio: the front so far is kept"));
        QVERIFY(result.front.empty());
        QVERIFY(result.searchTrials < 5000000);
        QCOMPARE(dialog->frontTable()->frontCount(), int(result.searchFront.size()));
        QVERIFY(!dialog->openButton()->isEnabled());
        QVERIFY(dialog->status()->text().contains(QStringLiteral(" stopped: ")));
        QVERIFY(!s.controller()->isRunning());
    }

    void closingTheDialogStopsItsSearch()
    {
        Studio s;
        QCOMPARE(s.prepare(), QString());
        auto* dialog = s.openDialog();
        QVERIFY(dialog);
        QSignalSpy finished(s.controller(), &SearchController::finished);
        QCOMPARE(s.start(dialog, QStringLiteral("math"), 5000000), QString());
        dialog->close();
        QVERIFY(finished.wait(60000));
        QVERIFY(finished.first().first().value<DesignSearch::Status>() == DesignSearch::Status::Stopped);
    }

    // Open as Team Tab: the design's file in a tab beside the canvas; Open in Editor makes it the open team;
    // Compare runs it against the open team on the search's test tasks and opens the experiment's tab.
    void aFoundDesignOpensAsATabAndComparesWithTheOpenTeam()
    {
        Studio s;
        QCOMPARE(s.prepare(), QString());
        auto* dialog = s.openDialog();
        QVERIFY(dialog);
        QCOMPARE(s.runToTheEnd(dialog, QStringLiteral("mixed-small"), kSmallBudget), QString());
        auto* centre = s.window.centreTabs();
        const int tabs = centre->count();
        const auto& design = s.controller()->report()["front"][0];
        QTest::mouseClick(dialog->openButton(), Qt::LeftButton);
        QCOMPARE(centre->count(), tabs + 1);
        auto* tab = qobject_cast<DesignTab*>(centre->currentWidget());
        QVERIFY(tab);
        QCOMPARE(centre->tabText(centre->currentIndex()),
                 QStringLiteral("Design #%1").arg(design["candidate"].get<int>()));
        QCOMPARE(tab->file(), QString::fromStdString(design["file"].get<std::string>()));
        QCOMPARE(QString::fromStdString(tab->document()->team().name),
                 QString::fromStdString(design["name"].get<std::string>()));
        QVERIFY(tab->summary()->text().contains(QStringLiteral("(simulated)")));
        QVERIFY(!tab->canvas()->isInteractive());

        // Compare: an experiment of [the open team, the design] on the 4 test tasks, seed 1.
        auto* experiments = s.window.experiments()->controller();
        QSignalSpy experimentDone(experiments, &ui::ExperimentController::finished);
        QTest::mouseClick(tab->compareButton(), Qt::LeftButton);
        QVERIFY(experiments->isRunning());
        QCOMPARE(int(experiments->designNames().size()), 2);
        QVERIFY(experimentDone.wait(60000));
        QCOMPARE(experiments->progress().done, int64_t(2 * s.controller()->result()->parts.test.size()));
        QCOMPARE(centre->count(), tabs + 2);
        QVERIFY(centre->tabText(centre->currentIndex()).startsWith(QStringLiteral("Experiment · ")));

        centre->setCurrentWidget(tab);
        QTest::mouseClick(tab->openButton(), Qt::LeftButton);
        QCOMPARE(s.window.document()->filePath(), tab->file());
        QCOMPARE(centre->currentIndex(), 0);
    }
};

QTEST_MAIN(TestSearchDialog)
#include "tst_searchdialog.moc"
