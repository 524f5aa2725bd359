#pragma once

#include "conclave/model/Node.h"

#include <QUndoCommand>

#include <optional>
#include <utility>
#include <vector>

namespace conclave::ui {

class TeamDocument;

// Moves nodes (a drag, an auto layout). Holds ids and positions before and after.
class MoveNodesCommand : public QUndoCommand {
public:
    using Positions = std::vector<std::pair<NodeId, std::optional<Position>>>;

    MoveNodesCommand(TeamDocument* document, Positions before, Positions after, const QString& text);

    void redo() override;
    void undo() override;

private:
    TeamDocument* m_document;
    Positions m_before;
    Positions m_after;
};

} // namespace conclave::ui
