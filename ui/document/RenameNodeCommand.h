#pragma once

#include "conclave/model/StrongId.h"

#include <QUndoCommand>

namespace conclave::ui {

class TeamDocument;

// Gives a node a new id; its edges follow.
class RenameNodeCommand : public QUndoCommand {
public:
    RenameNodeCommand(TeamDocument* document, NodeId from, NodeId to);

    void redo() override;
    void undo() override;

private:
    TeamDocument* m_document;
    NodeId m_from;
    NodeId m_to;
};

} // namespace conclave::ui
