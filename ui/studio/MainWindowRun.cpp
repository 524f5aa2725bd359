// MainWindow: running the team, the live canvas, the run output and history
// docks, and the run views (run, replay, compare, latency) below the canvas.
#include "studio/MainWindow.h"

#include "document/TeamDocument.h"
#include "editor/CanvasView.h"
#include "editor/TeamScene.h"
#include "run/CanvasRunStates.h"
#include "run/RunController.h"
#include "run/RunHistoryPanel.h"
#include "run/RunOutputPanel.h"
#include "run/RunToolBar.h"
#include "timeline/ChartExport.h"
#include "timeline/CompareView.h"
#include "timeline/LatencyBoxPlot.h"
#include "timeline/ReplayView.h"
#include "timeline/RunView.h"
#include "timeline/TimelineView.h"

#include "conclave/resources/ResourceLocator.h"
#include "conclave/store/RunQueries.h"

#include <QAction>
#include <QApplication>
#include <QChartView>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QSplitter>
#include <QStatusBar>
#include <QStyle>
#include <QTabBar>
#include <QTabWidget>

namespace conclave::ui {

namespace {
QString shortId(const RunId& id)
{
    return QString::fromStdString(id.str()).left(8);
}
} // namespace

void MainWindow::buildRunUi()
{
    const auto resources = findResourcesDir(QApplication::applicationFilePath().toStdString());
    m_runs = new RunController(resources.value_or(std::filesystem::path()), RunStore::resolvePath(std::nullopt), this);
    m_runStates = new CanvasRunStates(m_scene, m_runs, this);
    m_output = new RunOutputPanel(m_runs);
    m_history = new RunHistoryPanel(m_runs);
    m_runTabs = new QTabWidget;
    m_runTabs->setObjectName("runTabs");
    m_runTabs->setDocumentMode(true);
    m_runTabs->setTabsClosable(true);
    m_runTabs->hide();
    m_split->addWidget(m_runTabs);
    m_split->setStretchFactor(0, 2);
    m_split->setStretchFactor(1, 3);

    auto* output = new QDockWidget(tr("Run output"), this);
    output->setObjectName("runOutputDock");
    output->setWidget(m_output);
    addDockWidget(Qt::RightDockWidgetArea, output);
    auto* history = new QDockWidget(tr("Run history"), this);
    history->setObjectName("runHistoryDock");
    history->setWidget(m_history);
    addDockWidget(Qt::BottomDockWidgetArea, history);
    if (auto* problems = findChild<QDockWidget*>(QStringLiteral("problemsDock")))
        tabifyDockWidget(problems, history);
    history->raise();
    resizeDocks({history}, {140}, Qt::Vertical);

    m_runBar = new RunToolBar(this);
    m_runBar->setTasks(m_runs->tasks());
    auto* s = style();
    auto* run = makeAction("actionRun", tr("&Run"), QKeySequence(tr("Ctrl+R")), nullptr);
    run->setIcon(s->standardIcon(QStyle::SP_MediaPlay));
    connect(run, &QAction::triggered, this, [this] { startRun(); });
    auto* stop = makeAction("actionStop", tr("&Stop"), QKeySequence(tr("Ctrl+.")), &MainWindow::stopRun);
    stop->setIcon(s->standardIcon(QStyle::SP_MediaStop));
    stop->setEnabled(false);
    auto* replay = makeAction("actionReplay", tr("Re&play Run"), QKeySequence(tr("Ctrl+Shift+R")), nullptr);
    replay->setEnabled(false);
    connect(replay, &QAction::triggered, this, [this] {
        // The run of the current run tab, else the last run.
        if (auto* view = qobject_cast<RunView*>(m_runTabs->currentWidget()))
            openReplayTab(view->timelineModel()->run().summary.id);
        else if (m_runs->currentRun() && !m_runs->isRunning())
            openReplayTab(*m_runs->currentRun());
    });
    makeAction("actionExportChart", tr("Export &Chart…"), QKeySequence(), &MainWindow::exportChart)->setEnabled(false);
    m_runBar->insertAction(m_runBar->actions().value(0), stop);
    m_runBar->insertAction(stop, run);
    connect(m_runBar, &RunToolBar::runRequested, this, [this] { startRun(); });

    connect(m_runs, &RunController::started, this, [this](const RunId& id) {
        action("actionRun")->setEnabled(false);
        action("actionStop")->setEnabled(true);
        statusBar()->showMessage(
            tr("Running %1 (run %2)…").arg(QString::fromStdString(m_document->team().name), shortId(id)));
    });
    connect(m_runs, &RunController::finished, this, &MainWindow::onRunFinished);
    connect(m_scene, &QGraphicsScene::selectionChanged, this, [this] {
        const auto nodes = m_scene->selectedNodes();
        if (nodes.size() != 1)
            return;
        m_output->showNode(nodes.front());
        if (auto* view = qobject_cast<RunView*>(m_runTabs->currentWidget()))
            view->timeline()->selectNode(nodes.front());
        else if (auto* replayView = qobject_cast<ReplayView*>(m_runTabs->currentWidget()))
            replayView->timeline()->selectNode(nodes.front());
    });
    connect(m_document, &TeamDocument::teamReset, m_runStates, &CanvasRunStates::clear);
    connect(m_runTabs, &QTabWidget::tabCloseRequested, this, [this](int index) {
        QWidget* view = m_runTabs->widget(index);
        m_runTabs->removeTab(index);
        view->deleteLater();
        if (m_runTabs->count() == 0)
            m_runTabs->hide();
    });
    connect(m_runTabs, &QTabWidget::currentChanged, this, &MainWindow::onRunTabChanged);

    connect(m_history, &RunHistoryPanel::errorOccurred, this,
            [this](const QString& error) { statusBar()->showMessage(tr("Run history: %1").arg(error), 8000); });
    connect(m_history, &RunHistoryPanel::openRequested, this, [this](const RunId& id) { openRunTab(id); });
    connect(m_history, &RunHistoryPanel::replayRequested, this, [this](const RunId& id) { openReplayTab(id); });
    connect(m_history, &RunHistoryPanel::rerunRequested, this, [this](const RunId& id) { rerunStored(id); });
    connect(m_history, &RunHistoryPanel::deleteRequested, this, [this](const std::vector<RunId>& ids) {
        if (m_interactive &&
            QMessageBox::question(this, tr("Delete runs"), tr("Delete %n stored run(s)?", nullptr, int(ids.size()))) !=
                QMessageBox::Yes)
            return;
        deleteRuns(ids);
    });
    connect(m_history, &RunHistoryPanel::exportRequested, this, &MainWindow::exportRunWithDialog);
    connect(m_history, &RunHistoryPanel::compareRequested, this,
            [this](const RunId& a, const RunId& b) { openCompareTab(a, b); });
    connect(m_history, &RunHistoryPanel::latencyRequested, this, [this](const QString& team) { openLatencyTab(team); });
    refreshHistory();
}

void MainWindow::buildRunMenu()
{
    auto* menu = new QMenu(tr("&Run"), this);
    menuBar()->insertMenu(menuBar()->actions().value(3), menu); // after Insert, before View
    menu->addAction(action("actionRun"));
    menu->addAction(action("actionStop"));
    menu->addAction(action("actionReplay"));
    menu->addSeparator();
    menu->addAction(action("actionExportChart"));
    addToolBar(m_runBar); // after the main toolbar
}

bool MainWindow::setRunStore(const QString& file)
{
    if (!m_runs->setDbFile(file.toStdString()))
        return false;
    refreshHistory();
    return true;
}

bool MainWindow::startRun()
{
    if (m_runs->isRunning())
        return false;
    const std::string input = m_runBar->input();
    if (input.empty()) {
        statusBar()->showMessage(tr("Type an input for the run, or pick a task"), 6000);
        m_runBar->inputBox()->setFocus();
        return false;
    }
    QString error;
    // The engine gets a snapshot of the team: editing on during the run changes nothing in it.
    if (!m_runs->start(m_document->team(), input, m_runBar->seed(), &error)) {
        m_lastError = error;
        statusBar()->showMessage(tr("Cannot run: %1").arg(error.section('\n', 0, 0)), 10000);
        if (m_interactive)
            QMessageBox::warning(this, tr("Cannot run"), error);
        return false;
    }
    return true;
}

void MainWindow::stopRun()
{
    m_runs->stop();
    statusBar()->showMessage(tr("Stopping…"), 3000);
}

void MainWindow::onRunFinished(const RunId& id, RunStatus status)
{
    action("actionRun")->setEnabled(true);
    action("actionStop")->setEnabled(false);
    action("actionReplay")->setEnabled(true);
    const auto* result = m_runs->lastResult();
    QString message = tr("Run %1: %2").arg(shortId(id), QString::fromUtf8(toString(status).data()));
    if (result && result->output.ok())
        message += tr(" · answer %1").arg(QString::fromStdString(result->output.answer));
    statusBar()->showMessage(message);
    refreshHistory();
    m_history->selectRuns({id});
    openRunTab(id);
    if (const auto nodes = m_scene->selectedNodes(); nodes.size() == 1)
        m_output->showNode(nodes.front());
}

void MainWindow::refreshHistory()
{
    m_history->refresh(); // a store error reaches the status bar through errorOccurred
}

void MainWindow::addRunTab(QWidget* view, const QString& title, const QString& tip)
{
    const int index = m_runTabs->addTab(view, title);
    m_runTabs->setTabToolTip(index, tip);
    m_runTabs->setCurrentIndex(index);
    if (m_runTabs->isHidden()) {
        m_runTabs->show();
        const int total = m_split->height();
        m_split->setSizes({total * 2 / 5, total - total * 2 / 5});
    }
    action("actionExportChart")->setEnabled(true);
    action("actionReplay")->setEnabled(true);
}

bool MainWindow::openRunTab(const RunId& id)
{
    QString error;
    auto run = m_runs->loadRun(id, true, &error);
    if (!run) {
        statusBar()->showMessage(tr("Cannot open run %1: %2").arg(shortId(id), error), 8000);
        return false;
    }
    auto* view = new RunView;
    const QString tip = RunView::headerText(*run);
    view->setRun(std::move(*run));
    connect(view->timeline(), &TimelineView::spanClicked, this, &MainWindow::focusNode);
    addRunTab(view, tr("Run %1").arg(shortId(id)), tip);
    if (const auto nodes = m_scene->selectedNodes(); nodes.size() == 1)
        view->timeline()->selectNode(nodes.front());
    return true;
}

bool MainWindow::openReplayTab(const RunId& id)
{
    QString error;
    auto run = m_runs->loadRun(id, true, &error); // with its text, for the output dock
    if (!run) {
        statusBar()->showMessage(tr("Cannot replay run %1: %2").arg(shortId(id), error), 8000);
        return false;
    }
    auto* view = new ReplayView;
    const QString tip = RunView::headerText(*run);
    view->setRun(std::move(*run));
    connect(view->timeline(), &TimelineView::spanClicked, this, &MainWindow::focusNode);
    // The canvas shows each agent's state at the playhead while this tab is the current one.
    connect(view->controller(), &ReplayController::statesChanged, this, [this, view](qint64, const NodeStates& states) {
        if (m_runTabs->currentWidget() == view)
            m_runStates->showStates(states);
    });
    addRunTab(view, tr("Replay %1").arg(shortId(id)), tip);
    view->controller()->seek(0);
    return true;
}

bool MainWindow::openCompareTab(const RunId& a, const RunId& b)
{
    QString error;
    auto first = m_runs->loadRun(a, false, &error);
    auto second = first ? m_runs->loadRun(b, false, &error) : std::nullopt;
    if (!first || !second) {
        statusBar()->showMessage(tr("Cannot compare: %1").arg(error), 8000);
        return false;
    }
    auto* view = new CompareView;
    view->setRuns(std::move(*first), std::move(*second));
    connect(view->timelineA(), &TimelineView::spanClicked, this, &MainWindow::focusNode);
    connect(view->timelineB(), &TimelineView::spanClicked, this, &MainWindow::focusNode);
    addRunTab(view, tr("Compare %1 · %2").arg(shortId(a), shortId(b)), {});
    return true;
}

bool MainWindow::openLatencyTab(const QString& team, int lastRuns)
{
    QString error;
    auto* store = m_runs->store(&error);
    std::string e;
    std::unique_ptr<RunQueries> queries;
    if (store)
        queries = store->reader(e);
    std::vector<StoredRun> runs;
    if (queries)
        runs = LatencyBoxPlot::lastRuns(*queries, team.toStdString(), lastRuns, e);
    if (!queries || !e.empty() || runs.empty()) {
        statusBar()->showMessage(tr("No latency plot for %1: %2")
                                     .arg(team, !e.empty()         ? QString::fromStdString(e)
                                                : !error.isEmpty() ? error
                                                                   : tr("no finished runs")),
                                 8000);
        return false;
    }
    auto* view = new LatencyBoxPlot;
    view->setRuns(runs, tr("%1: latency per agent over its last %n run(s)", nullptr, int(runs.size())).arg(team));
    addRunTab(view, tr("Latency · %1").arg(team), {});
    return true;
}

bool MainWindow::rerunStored(const RunId& id)
{
    QString error;
    if (!m_runs->rerun(id, &error)) {
        statusBar()->showMessage(tr("Cannot re-run %1: %2").arg(shortId(id), error), 8000);
        return false;
    }
    return true;
}

bool MainWindow::deleteRuns(const std::vector<RunId>& ids)
{
    QString error;
    const bool ok = m_runs->deleteRuns(ids, &error);
    statusBar()->showMessage(
        ok ? tr("Deleted %n run(s)", nullptr, int(ids.size())) : tr("Cannot delete: %1").arg(error), 6000);
    refreshHistory();
    return ok;
}

void MainWindow::exportRunWithDialog(const RunId& id)
{
    const QStringList filters = {tr("Run JSON (*.json)"), tr("Chrome trace for Perfetto (*.trace.json)"),
                                 tr("OpenTelemetry JSON (*.otlp.json)"), tr("Spans as CSV (*.csv)")};
    const ExportFormat formats[] = {ExportFormat::Json, ExportFormat::Chrome, ExportFormat::Otlp, ExportFormat::Csv};
    QString selected = filters.first();
    const QString path =
        QFileDialog::getSaveFileName(this, tr("Export run"), QStringLiteral("run-%1.json").arg(shortId(id)),
                                     filters.join(QStringLiteral(";;")), &selected);
    if (path.isEmpty())
        return;
    const auto format = formats[std::max<qsizetype>(0, filters.indexOf(selected))];
    QString error;
    if (!m_runs->exportRun(id, format, path, &error))
        QMessageBox::warning(this, tr("Cannot export"), error);
    else
        statusBar()->showMessage(tr("Exported run %1 to %2").arg(shortId(id), QDir::toNativeSeparators(path)), 6000);
}

void MainWindow::onRunTabChanged()
{
    action("actionExportChart")->setEnabled(m_runTabs->count() > 0);
    if (auto* replay = qobject_cast<ReplayView*>(m_runTabs->currentWidget()))
        m_runStates->showStates(replay->controller()->states());
    // The output dock shows the run of the current tab (a run or a replay), else the live or last run.
    std::shared_ptr<const TimelineModel> model;
    if (auto* view = qobject_cast<RunView*>(m_runTabs->currentWidget()))
        model = view->timelineModel();
    else if (auto* replay = qobject_cast<ReplayView*>(m_runTabs->currentWidget()))
        model = replay->timelineModel();
    m_output->showStoredRun(model ? std::shared_ptr<const StoredRun>(model, &model->run()) : nullptr);
}

bool MainWindow::exportChartTo(const QString& path, QString* error)
{
    QWidget* view = m_runTabs->currentWidget();
    if (!view) {
        if (error)
            *error = tr("no run view is open");
        return false;
    }
    if (auto* plot = qobject_cast<LatencyBoxPlot*>(view))
        view = plot->chartView();
    return ChartExport::save(*view, path, error);
}

void MainWindow::exportChart()
{
    const QString path = QFileDialog::getSaveFileName(this, tr("Export chart"), QStringLiteral("chart.png"),
                                                      tr("PNG image (*.png);;SVG drawing (*.svg)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!exportChartTo(path, &error))
        QMessageBox::warning(this, tr("Cannot export the chart"), error);
    else
        statusBar()->showMessage(tr("Saved %1").arg(QDir::toNativeSeparators(path)), 5000);
}

} // namespace conclave::ui
