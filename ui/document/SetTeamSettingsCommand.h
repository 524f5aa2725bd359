#pragma once

#include "document/TeamSettings.h"

#include <QUndoCommand>

namespace conclave::ui {

class TeamDocument;

// Replaces the team-wide settings (name, description, backends, defaults, budget).
class SetTeamSettingsCommand : public QUndoCommand {
public:
    SetTeamSettingsCommand(TeamDocument* document, TeamSettings before, TeamSettings after,
                           QUndoCommand* parent = nullptr);

    void redo() override;
    void undo() override;

private:
    TeamDocument* m_document;
    TeamSettings m_before;
    TeamSettings m_after;
};

} // namespace conclave::ui
