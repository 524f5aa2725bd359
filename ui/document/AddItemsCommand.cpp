#include "document/AddItemsCommand.h"

#include "document/TeamDocument.h"

namespace conclave::ui {

AddItemsCommand::AddItemsCommand(TeamDocument* document, TeamFragment items, const QString& text, QUndoCommand* parent)
    : QUndoCommand(text, parent), m_document(document), m_items(std::move(items))
{
}

void AddItemsCommand::redo()
{
    m_document->applyInsert(m_items);
}
void AddItemsCommand::undo()
{
    m_document->applyErase(m_items);
}

} // namespace conclave::ui
