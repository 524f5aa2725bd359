#include "document/SetEdgeCommand.h"

#include "document/TeamDocument.h"

namespace conclave::ui {

SetEdgeCommand::SetEdgeCommand(TeamDocument* document, size_t index, Edge before, Edge after, const QString& text)
    : QUndoCommand(text), m_document(document), m_index(index), m_before(std::move(before)), m_after(std::move(after))
{
}

void SetEdgeCommand::redo()
{
    m_document->applyEdge(m_index, m_after);
}
void SetEdgeCommand::undo()
{
    m_document->applyEdge(m_index, m_before);
}

} // namespace conclave::ui
