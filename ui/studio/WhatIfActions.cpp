#include "studio/WhatIfActions.h"

#include "studio/RunTabs.h"
#include "studio/ShortRunId.h"
#include "studio/StudioAction.h"
#include "studio/StudioFeedback.h"

#include "run/RunController.h"
#include "timeline/RunView.h"
#include "whatif/WhatIfController.h"
#include "whatif/WhatIfPanel.h"

#include <QTabWidget>
#include <QToolButton>

namespace conclave::ui {

WhatIfActions::WhatIfActions(RunController* runs, TeamDocument* document, RunTabs* tabs, StudioFeedback* feedback,
                             QObject* parent)
    : QObject(parent), m_runs(runs), m_document(document), m_tabs(tabs), m_feedback(feedback),
      m_action(makeStudioAction(this, "actionWhatIf", tr("&What-if…")))
{
    m_action->setStatusTip(tr("Project what a faster agent, another model or more calls at once would have saved in "
                              "the current tab's run"));
    connect(m_action, &QAction::triggered, this, [this] {
        const RunTabView tab = m_tabs->current();
        if (tab.model)
            openWhatIfTab(tab.model->run().summary.id);
    });
    // A button on the run tabs themselves, where the run is.
    auto* button = new QToolButton;
    button->setDefaultAction(m_action);
    button->setAutoRaise(true);
    m_tabs->tabs()->setCornerWidget(button, Qt::TopRightCorner);
    connect(m_tabs, &RunTabs::currentTabChanged, this, &WhatIfActions::updateAction);
    connect(m_runs, &RunController::finished, this, &WhatIfActions::updateAction);
    updateAction();
}

void WhatIfActions::updateAction()
{
    const RunTabView tab = m_tabs->current();
    const bool ended = tab.model && tab.model->run().summary.status != RunStatus::Running &&
                       tab.model->run().summary.status != RunStatus::Interrupted;
    m_action->setEnabled(ended);
    m_action->setToolTip(ended ? tr("What-if: project changes to this run's agents and backends")
                               : tr("What-if: open a run that has ended in a tab first"));
}

bool WhatIfActions::openWhatIfTab(const RunId& id, const QString& context)
{
    if (!m_runs->resourceError().isEmpty()) {
        m_feedback->showStatus(tr("Cannot open a what-if of run %1: %2").arg(shortRunId(id), m_runs->resourceError()),
                               StatusTimeouts::kRequestFailed);
        return false;
    }
    std::set<std::string> localModels;
    for (const auto& [name, profile] : m_runs->resources().localModels)
        localModels.insert(name);
    auto* panel = new WhatIfPanel(new WhatIfController(m_runs->resources(), m_runs->dbFile()), m_document,
                                  std::move(localModels));
    connect(panel, &WhatIfPanel::loaded, this, [this, id](bool ok) {
        if (!ok)
            m_feedback->showStatus(tr("No what-if of run %1").arg(shortRunId(id)), StatusTimeouts::kRequestFailed);
    });
    panel->open(id.str(), context);
    m_tabs->addTab(panel, tr("What-if %1").arg(shortRunId(id)),
                   context.isEmpty() ? tr("What-if of run %1").arg(QString::fromStdString(id.str()))
                                     : tr("What-if of run %1 (%2)").arg(QString::fromStdString(id.str()), context));
    // Asked from an experiment's tab: the page the run tabs are on (the canvas's) comes to the front.
    for (QWidget* page = m_tabs->tabs(); page && page->parentWidget(); page = page->parentWidget()) {
        auto* centre = qobject_cast<QTabWidget*>(page->parentWidget()->parentWidget());
        if (centre && centre->indexOf(page) >= 0) {
            centre->setCurrentWidget(page);
            break;
        }
    }
    return true;
}

WhatIfPanel* WhatIfActions::currentPanel() const
{
    return qobject_cast<WhatIfPanel*>(m_tabs->tabs()->currentWidget());
}

} // namespace conclave::ui
