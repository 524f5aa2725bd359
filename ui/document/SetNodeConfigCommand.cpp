#include "document/SetNodeConfigCommand.h"

#include "document/TeamDocument.h"

namespace conclave::ui {

SetNodeConfigCommand::SetNodeConfigCommand(TeamDocument* document, NodeId node, NodeConfig before, NodeConfig after,
                                           int mergeKey)
    : QUndoCommand(QObject::tr("Edit %1").arg(QString::fromStdString(node.str()))), m_document(document),
      m_node(std::move(node)), m_before(std::move(before)), m_after(std::move(after)), m_mergeKey(mergeKey)
{
}

void SetNodeConfigCommand::redo()
{
    m_document->applyConfig(m_node, m_after);
}
void SetNodeConfigCommand::undo()
{
    m_document->applyConfig(m_node, m_before);
}

bool SetNodeConfigCommand::mergeWith(const QUndoCommand* other)
{
    const auto* next = dynamic_cast<const SetNodeConfigCommand*>(other);
    if (!next || next->m_node != m_node || next->m_mergeKey != m_mergeKey || m_mergeKey < 0)
        return false;
    m_after = next->m_after;
    return true;
}

} // namespace conclave::ui
