#include "studio/ServeActions.h"

#include "studio/RunTabs.h"
#include "studio/StudioAction.h"
#include "studio/StudioFeedback.h"

#include "document/TeamDocument.h"
#include "run/RunHistoryPanel.h"
#include "run/RunToolBar.h"
#include "run/ServeController.h"
#include "run/ServeDialog.h"

#include <QSpinBox>
#include <QTimer>

namespace conclave::ui {

ServeActions::ServeActions(RunController* runs, TeamDocument* document, RunToolBar* bar, RunHistoryPanel* history,
                           RunTabs* tabs, StudioFeedback* feedback, QWidget* window)
    : QObject(window), m_runs(runs), m_document(document), m_bar(bar), m_history(history), m_tabs(tabs),
      m_feedback(feedback), m_window(window), m_controller(new ServeController(runs, this)),
      m_historyRefresh(new QTimer(this))
{
    m_serve = makeStudioAction(this, "actionServe", tr("Ser&ve This Team…"));
    m_serve->setToolTip(tr("Serve the open team as an OpenAI-compatible endpoint on this machine; every request is "
                           "a stored run"));
    connect(m_serve, &QAction::triggered, this, [this] { showDialog(); });
    // Served runs come in bursts: the history reloads once for each burst.
    m_historyRefresh->setSingleShot(true);
    m_historyRefresh->setInterval(kHistoryMs);
    connect(m_historyRefresh, &QTimer::timeout, m_history, &RunHistoryPanel::refresh);
    connect(m_controller, &ServeController::requestServed, this, [this] {
        if (!m_historyRefresh->isActive())
            m_historyRefresh->start();
    });
    connect(m_controller, &ServeController::started, this, [this] {
        m_feedback->showStatus(tr("Serving %1 on %2").arg(m_controller->modelId(), m_controller->url()));
    });
    connect(m_controller, &ServeController::stopped, this, [this] {
        m_historyRefresh->stop();
        m_history->refresh(); // the runs the drain ended
        m_feedback->showStatus(tr("Stopped serving %1").arg(m_controller->modelId()));
    });
}

bool ServeActions::isServing() const
{
    return m_controller->isServing();
}

ServeDialog* ServeActions::dialog()
{
    if (!m_dialog) {
        m_dialog = new ServeDialog(m_controller, m_window);
        connect(m_dialog, &ServeDialog::startRequested, this, &ServeActions::start);
        connect(m_dialog, &ServeDialog::openRunRequested, m_tabs, &RunTabs::openRunTab);
        // The team line follows the document while the dialog is open (an unsaved team's id, its content hash,
        // changes with every edit; validation follows every edit).
        const auto follow = [this] {
            if (m_dialog->isVisible())
                offerOpenTeam();
        };
        connect(m_document, &TeamDocument::problemsChanged, m_dialog, follow);
        connect(m_document, &TeamDocument::modifiedChanged, m_dialog, follow);
        connect(m_document, &TeamDocument::teamReset, m_dialog, follow);
        connect(m_document, &TeamDocument::filePathChanged, m_dialog, follow);
    }
    offerOpenTeam();
    m_dialog->setSampleInput(QString::fromStdString(m_bar->input()));
    return m_dialog;
}

ServeDialog* ServeActions::showDialog()
{
    auto* d = dialog();
    d->show();
    d->raise();
    d->activateWindow();
    return d;
}

bool ServeActions::startServing(quint16 port)
{
    auto* d = showDialog();
    d->portBox()->setValue(port);
    return d->start();
}

void ServeActions::offerOpenTeam()
{
    const Team& team = m_document->team();
    const auto id = ServeController::modelIdOf(team, m_document->filePath().toStdString());
    m_dialog->setOpenTeam(team.name.empty() ? m_document->displayName() : QString::fromStdString(team.name),
                          QString::fromStdString(id), m_document->filePath().isEmpty() || m_document->isModified());
}

void ServeActions::start(quint16 port, const QString& keysFile)
{
    const Team& team = m_document->team();
    const auto id = ServeController::modelIdOf(team, m_document->filePath().toStdString());
    m_dialog->setSampleInput(QString::fromStdString(m_bar->input()));
    // The document's team as it is now: a snapshot, so editing on changes nothing served.
    m_controller->start(team, id, m_document->folder(), ServeController::Options{port, keysFile});
}

} // namespace conclave::ui
