#include "document/MoveNodesCommand.h"

#include "document/TeamDocument.h"

namespace conclave::ui {

MoveNodesCommand::MoveNodesCommand(TeamDocument* document, Positions before, Positions after, const QString& text)
    : QUndoCommand(text), m_document(document), m_before(std::move(before)), m_after(std::move(after))
{
}

void MoveNodesCommand::redo()
{
    m_document->applyPositions(m_after);
}
void MoveNodesCommand::undo()
{
    m_document->applyPositions(m_before);
}

} // namespace conclave::ui
