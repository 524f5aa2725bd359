#pragma once

#include "document/TeamFragment.h"

#include <QUndoCommand>

namespace conclave::ui {

class TeamDocument;

// Takes nodes and edges out; undo puts them back where they were.
class RemoveItemsCommand : public QUndoCommand {
public:
    RemoveItemsCommand(TeamDocument* document, TeamFragment items, const QString& text);

    void redo() override;
    void undo() override;

private:
    TeamDocument* m_document;
    TeamFragment m_items;
};

} // namespace conclave::ui
