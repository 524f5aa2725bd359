#include "document/SetTeamSettingsCommand.h"

#include "document/TeamDocument.h"

namespace conclave::ui {

SetTeamSettingsCommand::SetTeamSettingsCommand(TeamDocument* document, TeamSettings before, TeamSettings after,
                                               QUndoCommand* parent)
    : QUndoCommand(QObject::tr("Edit team settings"), parent), m_document(document), m_before(std::move(before)),
      m_after(std::move(after))
{
}

void SetTeamSettingsCommand::redo()
{
    m_document->applySettings(m_after);
}
void SetTeamSettingsCommand::undo()
{
    m_document->applySettings(m_before);
}

} // namespace conclave::ui
