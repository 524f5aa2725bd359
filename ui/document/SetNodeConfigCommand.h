#pragma once

#include "conclave/model/Node.h"

#include <QUndoCommand>

namespace conclave::ui {

class TeamDocument;

// Replaces a node's configuration. Consecutive edits of one field of one node
// (typing into a prompt) merge into a single undo step.
class SetNodeConfigCommand : public QUndoCommand {
public:
    SetNodeConfigCommand(TeamDocument* document, NodeId node, NodeConfig before, NodeConfig after, int mergeKey);

    void redo() override;
    void undo() override;
    int id() const override { return m_mergeKey < 0 ? -1 : 1000; }
    bool mergeWith(const QUndoCommand* other) override;

private:
    TeamDocument* m_document;
    NodeId m_node;
    NodeConfig m_before;
    NodeConfig m_after;
    int m_mergeKey;
};

} // namespace conclave::ui
