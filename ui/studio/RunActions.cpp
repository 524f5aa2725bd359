#include "studio/RunActions.h"

#include "studio/PaletteIconEngine.h"
#include "studio/RunTabs.h"
#include "studio/ShortRunId.h"
#include "studio/StudioAction.h"
#include "studio/StudioFeedback.h"
#include "timeline/TimeFormat.h"

#include "document/TeamDocument.h"
#include "run/RunController.h"
#include "run/RunHistoryPanel.h"
#include "run/RunToolBar.h"
#include "timeline/TimelineModel.h"

#include <QDir>
#include <QFileDialog>
#include <QLineEdit>
#include <QMessageBox>
#include <QStyle>

namespace conclave::ui {

RunActions::RunActions(RunController* runs, TeamDocument* document, RunToolBar* bar, RunHistoryPanel* history,
                       RunTabs* tabs, StudioFeedback* feedback, QWidget* window)
    : QObject(window), m_runs(runs), m_document(document), m_bar(bar), m_history(history), m_tabs(tabs),
      m_feedback(feedback), m_window(window)
{
    m_bar->setTasks(m_runs->tasks());
    buildActions();
    connect(m_bar, &RunToolBar::runRequested, this, &RunActions::startRun);
    connect(m_runs, &RunController::started, this, &RunActions::onStarted);
    connect(m_runs, &RunController::finished, this, &RunActions::onFinished);
    connect(m_tabs, &RunTabs::tabOpened, this, [this] {
        m_exportChart->setEnabled(true);
        m_replay->setEnabled(true);
    });
    connect(m_tabs, &RunTabs::currentTabChanged, this, [this] { m_exportChart->setEnabled(m_tabs->count() > 0); });
    connectHistory();
}

void RunActions::buildActions()
{
    // Drawn in the palette's colours: the style's media icons vanish on the dark theme.
    m_run = makeStudioAction(this, "actionRun", tr("&Run"), QKeySequence(tr("Ctrl+R")), &RunActions::startRun);
    m_run->setIcon(PaletteIconEngine::icon(PaletteIconEngine::Glyph::Play));
    m_stop = makeStudioAction(this, "actionStop", tr("&Stop"), QKeySequence(tr("Ctrl+.")), &RunActions::stopRun);
    m_stop->setIcon(PaletteIconEngine::icon(PaletteIconEngine::Glyph::Stop));
    m_stop->setEnabled(false);
    m_replay = makeStudioAction(this, "actionReplay", tr("Re&play Run"), QKeySequence(tr("Ctrl+Shift+R")),
                                &RunActions::replayCurrent);
    m_replay->setEnabled(false);
    m_exportChart =
        makeStudioAction(this, "actionExportChart", tr("Export &Chart…"), QKeySequence(), &RunActions::exportChart);
    m_exportChart->setEnabled(false);
    m_bar->insertAction(m_bar->actions().value(0), m_stop);
    m_bar->insertAction(m_stop, m_run);
}

void RunActions::connectHistory()
{
    connect(m_history, &RunHistoryPanel::errorOccurred, this, [this](const QString& error) {
        m_feedback->showStatus(tr("Run history: %1").arg(error), StatusTimeouts::kRequestFailed);
    });
    connect(m_history, &RunHistoryPanel::openRequested, m_tabs, &RunTabs::openRunTab);
    connect(m_history, &RunHistoryPanel::replayRequested, m_tabs, &RunTabs::openReplayTab);
    connect(m_history, &RunHistoryPanel::rerunRequested, this, &RunActions::rerunStored);
    connect(m_history, &RunHistoryPanel::deleteRequested, this, &RunActions::confirmDelete);
    connect(m_history, &RunHistoryPanel::exportRequested, this, &RunActions::exportRunWithDialog);
    connect(m_history, &RunHistoryPanel::compareRequested, m_tabs, &RunTabs::openCompareTab);
    connect(m_history, &RunHistoryPanel::latencyRequested, m_tabs,
            [this](const QString& team) { m_tabs->openLatencyTab(team); });
    refreshHistory();
}

bool RunActions::setRunStore(const QString& file)
{
    if (!m_runs->setDbFile(file.toStdString()))
        return false;
    refreshHistory();
    return true;
}

bool RunActions::startRun()
{
    if (m_runs->isRunning())
        return false;
    const std::string input = m_bar->input();
    if (input.empty()) {
        m_feedback->showStatus(tr("Type an input for the run, or pick a task"), StatusTimeouts::kNeedsInput);
        m_bar->inputBox()->setFocus();
        return false;
    }
    QString error;
    // The engine gets a snapshot of the team: editing on during the run changes nothing in it.
    const auto clock = m_bar->instant() ? ClockRequest::Virtual : ClockRequest::Real;
    if (!m_runs->start(m_document->team(), input, m_bar->seed(), clock, &error, m_document->folder())) {
        m_feedback->setLastError(error);
        m_feedback->showStatus(tr("Cannot run: %1").arg(error.section('\n', 0, 0)), StatusTimeouts::kRunRefused);
        if (m_feedback->isInteractive())
            QMessageBox::warning(m_window, tr("Cannot run"), error);
        return false;
    }
    return true;
}

void RunActions::stopRun()
{
    m_runs->stop();
    m_feedback->showStatus(tr("Stopping…"), StatusTimeouts::kProgress);
}

void RunActions::onStarted(const RunId& id)
{
    m_run->setEnabled(false);
    m_stop->setEnabled(true);
    m_feedback->showStatus(
        tr("Running %1 (run %2)…").arg(QString::fromStdString(m_document->team().name), shortRunId(id)));
    m_tabs->openLiveTab(id);
}

void RunActions::onFinished(const RunId& id, RunStatus status)
{
    m_run->setEnabled(true);
    m_stop->setEnabled(false);
    m_replay->setEnabled(true);
    const auto* result = m_runs->lastResult();
    QString message = tr("Run %1: %2").arg(shortRunId(id), QString::fromUtf8(toString(status).data()));
    if (result && result->output.ok())
        message += tr(" · answer %1").arg(QString::fromStdString(result->output.answer));
    if (result && result->clock == ClockKind::Virtual)
        message += tr(" · simulated clock");
    m_feedback->showStatus(message);
    refreshHistory();
    m_history->selectRuns({id});
    m_tabs->finishRunTab(id);
    m_tabs->showSelectedNode();
}

void RunActions::replayCurrent()
{
    // The run of the current run tab (not of a replay tab), else the last run.
    const RunTabView tab = m_tabs->current();
    if (tab.model && !tab.replay && !tab.live)
        m_tabs->openReplayTab(tab.model->run().summary.id);
    else if (m_runs->currentRun() && !m_runs->isRunning())
        m_tabs->openReplayTab(*m_runs->currentRun());
}

void RunActions::refreshHistory()
{
    m_history->refresh(); // a store error reaches the status bar through errorOccurred
}

bool RunActions::rerunStored(const RunId& id)
{
    QString error;
    if (!m_runs->rerun(id, &error)) {
        m_feedback->showStatus(tr("Cannot re-run %1: %2").arg(shortRunId(id), error), StatusTimeouts::kRequestFailed);
        return false;
    }
    return true;
}

void RunActions::confirmDelete(const std::vector<RunId>& ids)
{
    if (m_feedback->isInteractive() &&
        QMessageBox::question(m_window, tr("Delete runs"), tr("Delete %n stored run(s)?", nullptr, int(ids.size()))) !=
            QMessageBox::Yes)
        return;
    deleteRuns(ids);
}

bool RunActions::deleteRuns(const std::vector<RunId>& ids)
{
    QString error;
    const bool ok = m_runs->deleteRuns(ids, &error);
    m_feedback->showStatus(ok ? tr("Deleted %1").arg(TimeFormat::count(int64_t(ids.size()), tr("run"), tr("runs")))
                              : tr("Cannot delete: %1").arg(error),
                           StatusTimeouts::kRunStoreDone);
    refreshHistory();
    return ok;
}

void RunActions::exportRunWithDialog(const RunId& id)
{
    const QStringList filters = {tr("Run JSON (*.json)"), tr("Chrome trace for Perfetto (*.trace.json)"),
                                 tr("OpenTelemetry JSON (*.otlp.json)"), tr("Spans as CSV (*.csv)")};
    const ExportFormat formats[] = {ExportFormat::Json, ExportFormat::Chrome, ExportFormat::Otlp, ExportFormat::Csv};
    QString selected = filters.first();
    const QString path =
        QFileDialog::getSaveFileName(m_window, tr("Export run"), QStringLiteral("run-%1.json").arg(shortRunId(id)),
                                     filters.join(QStringLiteral(";;")), &selected);
    if (path.isEmpty())
        return;
    const auto format = formats[std::max<qsizetype>(0, filters.indexOf(selected))];
    QString error;
    if (!m_runs->exportRun(id, format, path, &error))
        QMessageBox::warning(m_window, tr("Cannot export"), error);
    else
        m_feedback->showStatus(tr("Exported run %1 to %2").arg(shortRunId(id), QDir::toNativeSeparators(path)),
                               StatusTimeouts::kRunStoreDone);
}

void RunActions::exportChart()
{
    const QString path = QFileDialog::getSaveFileName(m_window, tr("Export chart"), QStringLiteral("chart.png"),
                                                      tr("PNG image (*.png);;SVG drawing (*.svg)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!m_tabs->exportChartTo(path, &error))
        QMessageBox::warning(m_window, tr("Cannot export the chart"), error);
    else
        m_feedback->showStatus(tr("Saved %1").arg(QDir::toNativeSeparators(path)), StatusTimeouts::kFileDone);
}

} // namespace conclave::ui
