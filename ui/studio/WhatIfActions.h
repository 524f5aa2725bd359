#pragma once

#include "conclave/store/StoredRun.h"

#include <QObject>
#include <QString>

class QAction;

namespace conclave::ui {

class RunController;
class RunTabs;
class StudioFeedback;
class TeamDocument;
class WhatIfPanel;

// Run > What-if… (and its button at the corner of the run tabs): opens a
// What-if tab below the canvas for the run of the current run or replay tab,
// on the studio's resources and run store, with Apply writing into the open
// team. Disabled while the current tab shows no single run.
class WhatIfActions : public QObject {
    Q_OBJECT

public:
    WhatIfActions(RunController* runs, TeamDocument* document, RunTabs* tabs, StudioFeedback* feedback,
                  QObject* parent);

    QAction* action() const { return m_action; }
    // Opens a What-if tab on `id`; `context` (e.g. which trial) is said in its header. False (and a status message)
    // when the studio's resources did not load.
    bool openWhatIfTab(const RunId& id, const QString& context = {});
    // The panel of the current tab, if it is a What-if tab.
    WhatIfPanel* currentPanel() const;

private:
    void updateAction();

    RunController* m_runs;
    TeamDocument* m_document;
    RunTabs* m_tabs;
    StudioFeedback* m_feedback;
    QAction* m_action;
};

} // namespace conclave::ui
