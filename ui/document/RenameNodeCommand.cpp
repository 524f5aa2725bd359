#include "document/RenameNodeCommand.h"

#include "document/TeamDocument.h"

namespace conclave::ui {

RenameNodeCommand::RenameNodeCommand(TeamDocument* document, NodeId from, NodeId to)
    : QUndoCommand(
          QObject::tr("Rename %1 to %2").arg(QString::fromStdString(from.str()), QString::fromStdString(to.str()))),
      m_document(document), m_from(std::move(from)), m_to(std::move(to))
{
}

void RenameNodeCommand::redo()
{
    m_document->applyRename(m_from, m_to);
}
void RenameNodeCommand::undo()
{
    m_document->applyRename(m_to, m_from);
}

} // namespace conclave::ui
