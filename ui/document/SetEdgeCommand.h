#pragma once

#include "conclave/model/Node.h"

#include <QUndoCommand>

#include <cstddef>

namespace conclave::ui {

class TeamDocument;

// Replaces the edge at an index (its route label).
class SetEdgeCommand : public QUndoCommand {
public:
    SetEdgeCommand(TeamDocument* document, size_t index, Edge before, Edge after, const QString& text);

    void redo() override;
    void undo() override;

private:
    TeamDocument* m_document;
    size_t m_index;
    Edge m_before;
    Edge m_after;
};

} // namespace conclave::ui
