#pragma once

#include "document/TeamFragment.h"

#include <QUndoCommand>

namespace conclave::ui {

class TeamDocument;

// Inserts nodes and edges at given places; undo takes them out again.
class AddItemsCommand : public QUndoCommand {
public:
    AddItemsCommand(TeamDocument* document, TeamFragment items, const QString& text, QUndoCommand* parent = nullptr);

    void redo() override;
    void undo() override;

private:
    TeamDocument* m_document;
    TeamFragment m_items;
};

} // namespace conclave::ui
