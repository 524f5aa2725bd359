#include "document/RemoveItemsCommand.h"

#include "document/TeamDocument.h"

namespace conclave::ui {

RemoveItemsCommand::RemoveItemsCommand(TeamDocument* document, TeamFragment items, const QString& text)
    : QUndoCommand(text), m_document(document), m_items(std::move(items))
{
}

void RemoveItemsCommand::redo()
{
    m_document->applyErase(m_items);
}
void RemoveItemsCommand::undo()
{
    m_document->applyInsert(m_items);
}

} // namespace conclave::ui
