#include "studio/ExperimentActions.h"

#include "studio/RunTabs.h"
#include "studio/StudioAction.h"
#include "studio/StudioFeedback.h"

#include "document/TeamDocument.h"
#include "experiment/EvaluateDialog.h"
#include "experiment/ExperimentController.h"
#include "experiment/ExperimentView.h"
#include "experiment/FidelityDialog.h"
#include "experiment/TrainRouterDialog.h"
#include "run/ExperimentHistoryPanel.h"
#include "run/RunController.h"

#include <QDir>
#include <QFileInfo>
#include <QTabBar>
#include <QTabWidget>

namespace conclave::ui {

namespace {
constexpr char kExperimentProperty[] = "conclaveExperiment";
}

ExperimentActions::ExperimentActions(RunController* runs, TeamDocument* document, QTabWidget* centre, RunTabs* tabs,
                                     ExperimentHistoryPanel* history, StudioFeedback* feedback, QWidget* window)
    : QObject(window), m_runs(runs), m_document(document), m_centre(centre), m_tabs(tabs), m_history(history),
      m_feedback(feedback), m_window(window), m_controller(new ExperimentController(runs, this))
{
    m_evaluate = makeStudioAction(this, "actionEvaluate", tr("&Evaluate Designs…"), QKeySequence(tr("Ctrl+Shift+E")),
                                  &ExperimentActions::showDialog);
    auto* train = makeStudioAction(this, "actionTrainRouter", tr("Train &Router…"));
    train->setToolTip(tr("Learn which model answers which prompt right from stored experiments: a router file"));
    connect(train, &QAction::triggered, this, [this] { openTrainRouter(); });
    m_centre->setTabsClosable(true);
    if (m_centre->count() > 0) { // the canvas stays: no close button, on whichever side the style puts it
        m_centre->tabBar()->setTabButton(0, QTabBar::LeftSide, nullptr);
        m_centre->tabBar()->setTabButton(0, QTabBar::RightSide, nullptr);
    }
    connect(m_centre, &QTabWidget::tabCloseRequested, this, &ExperimentActions::closeTab);

    connect(m_controller, &ExperimentController::started, this, [this](const QString& id) {
        m_history->setRunningExperiment(id);
        m_history->refresh();
        m_feedback->showStatus(tr("Experiment %1 started").arg(id));
    });
    connect(
        m_controller, &ExperimentController::finished, this,
        [this](const QString& id, ExperimentStatus status, const QString& note) { onFinished(id, int(status), note); });
    connect(m_history, &ExperimentHistoryPanel::openRequested, this, &ExperimentActions::openExperimentTab);
    connect(m_history, &ExperimentHistoryPanel::resumeRequested, this, &ExperimentActions::resumeExperiment);
    connect(m_history, &ExperimentHistoryPanel::fidelityRequested, this, &ExperimentActions::openFidelity);
    connect(m_history, &ExperimentHistoryPanel::trainRouterRequested, this,
            [this](const QStringList& ids) { openTrainRouter(ids); });
    connect(m_history, &ExperimentHistoryPanel::errorOccurred, this, [this](const QString& error) {
        m_feedback->showStatus(tr("Experiments: %1").arg(error), StatusTimeouts::kRequestFailed);
    });
    connect(m_history, &ExperimentHistoryPanel::statusMessage, this,
            [this](const QString& message) { m_feedback->showStatus(message); });
    connect(m_history, &ExperimentHistoryPanel::experimentsDeleted, this, [this](const QStringList& ids) {
        for (const QString& id : ids) {
            if (auto* view = experimentTab(id))
                closeTab(m_centre->indexOf(view));
        }
    });
}

EvaluateDialog* ExperimentActions::dialog()
{
    if (!m_dialog) {
        m_dialog = new EvaluateDialog(m_controller, m_runs->resourcesDir(), m_window);
        m_dialog->setConfirmPaid(m_feedback->isInteractive());
        connect(m_dialog, &EvaluateDialog::openResults, this, &ExperimentActions::openExperimentTab);
        // The open team's line follows the document while the dialog stays open.
        connect(m_document, &TeamDocument::modifiedChanged, m_dialog, [this] { offerOpenTeam(); });
        connect(m_document, &TeamDocument::teamReset, m_dialog, [this] { offerOpenTeam(); });
        connect(m_document, &TeamDocument::settingsChanged, m_dialog, [this] { offerOpenTeam(); });
    }
    offerOpenTeam();
    return m_dialog;
}

void ExperimentActions::offerOpenTeam()
{
    const Team& team = m_document->team();
    m_dialog->setOpenTeam(team.name.empty() ? m_document->displayName() : QString::fromStdString(team.name),
                          m_document->isModified(), [document = m_document] { return document->team(); });
}

void ExperimentActions::showDialog()
{
    auto* d = dialog();
    d->show();
    d->raise();
    d->activateWindow();
}

ExperimentView* ExperimentActions::experimentTab(const QString& id) const
{
    for (int i = 0; i < m_centre->count(); ++i) {
        if (m_centre->widget(i)->property(kExperimentProperty).toString() == id)
            return qobject_cast<ExperimentView*>(m_centre->widget(i));
    }
    return nullptr;
}

bool ExperimentActions::openExperimentTab(const QString& id)
{
    QString error;
    auto report = m_runs->loadExperiment(id.toStdString(), &error);
    if (!report) {
        m_feedback->showStatus(tr("Cannot open experiment %1: %2").arg(id, error), StatusTimeouts::kRequestFailed);
        return false;
    }
    const QString fullId = QString::fromStdString(report->record.id);
    const QString name = QString::fromStdString(report->record.name);
    auto* view = experimentTab(fullId);
    if (!view) {
        view = new ExperimentView;
        view->setProperty(kExperimentProperty, fullId);
        connect(view, &ExperimentView::openRun, m_tabs, &RunTabs::openRunTab);
        connect(view, &ExperimentView::compareRuns, m_tabs, &RunTabs::openCompareTab);
        connect(view, &ExperimentView::whatIfRun, this, &ExperimentActions::whatIfRequested);
        m_centre->addTab(view, tr("Experiment · %1").arg(name));
    }
    // Both again when it is open: it may have run on since.
    m_centre->setTabToolTip(m_centre->indexOf(view), ExperimentView::headerText(*report));
    view->setReport(std::move(*report));
    m_centre->setCurrentWidget(view);
    return true;
}

bool ExperimentActions::resumeExperiment(const QString& id)
{
    auto* d = dialog();
    d->show();
    d->raise();
    return d->resume(id);
}

FidelityDialog* ExperimentActions::fidelityDialog(const QStringList& ids) const
{
    const auto it = m_fidelity.find(ids);
    return it == m_fidelity.end() ? nullptr : it->second.data();
}

FidelityDialog* ExperimentActions::openFidelity(const QStringList& ids)
{
    if (ids.isEmpty())
        return nullptr;
    auto* d = fidelityDialog(ids);
    if (!d) {
        d = new FidelityDialog(m_runs, ids, m_window);
        d->setDeleteWhenClosed(true);
        m_fidelity[ids] = d;
    }
    d->show();
    d->raise();
    d->activateWindow();
    return d;
}

QString ExperimentActions::defaultRouterFile() const
{
    // Beside the open team (NAME.router.json), else router.json at home; never
    // an existing file: a default must not replace a router (a bundled
    // example's, an earlier training's) the user did not choose.
    const QString team = m_document->filePath();
    QDir dir = QDir::home();
    QString stem = QStringLiteral("router");
    QString suffix = QStringLiteral(".json");
    if (!team.isEmpty()) {
        const QFileInfo info(team);
        dir = info.absoluteDir();
        stem = info.fileName();
        for (const auto* teamSuffix : {".team.json", ".json"}) {
            if (stem.endsWith(QLatin1String(teamSuffix))) {
                stem.chop(qsizetype(qstrlen(teamSuffix)));
                break;
            }
        }
        suffix = QStringLiteral(".router.json");
    }
    QString path = dir.filePath(stem + suffix);
    for (int n = 2; QFileInfo::exists(path); ++n)
        path = dir.filePath(stem + QStringLiteral("-%1").arg(n) + suffix);
    return path;
}

TrainRouterDialog* ExperimentActions::openTrainRouter(const QStringList& ids)
{
    if (!m_trainRouter)
        m_trainRouter = new TrainRouterDialog(m_runs, m_window);
    auto* d = m_trainRouter;
    d->refreshExperiments();
    d->setCheckedExperiments(ids.isEmpty() ? m_history->selectedIds() : ids);
    // The default follows the open team until the user picks another file.
    if (d->output().isEmpty() || d->output() == m_routerFileOffered) {
        m_routerFileOffered = defaultRouterFile();
        d->setOutput(m_routerFileOffered);
    }
    d->show();
    d->raise();
    d->activateWindow();
    return d;
}

void ExperimentActions::onFinished(const QString& id, int status, const QString& note)
{
    m_history->setRunningExperiment({});
    m_history->refresh();
    if (m_trainRouter && m_trainRouter->isVisible()) // the experiment just ended is one to learn from
        m_trainRouter->refreshExperiments();
    const QString word = QString::fromStdString(std::string(toString(ExperimentStatus(status))));
    m_feedback->showStatus(note.isEmpty() ? tr("Experiment %1 %2").arg(id, word)
                                          : tr("Experiment %1 %2: %3").arg(id, word, note));
}

void ExperimentActions::closeTab(int index)
{
    if (index <= 0) // the canvas is never closed
        return;
    QWidget* view = m_centre->widget(index);
    m_centre->removeTab(index);
    view->deleteLater();
}

} // namespace conclave::ui
