#pragma once

#include "conclave/model/Team.h"

#include <QString>

#include <optional>
#include <vector>

namespace conclave::ui {

// Copy and paste as team JSON: a copied selection is a complete team file
// (the nodes, the edges among them, the backends they name), so it can be
// pasted into another window or a text editor, and any team file's text can
// be pasted back in.
class TeamClipboard {
public:
    static Team fragment(const Team& team, const std::vector<NodeId>& nodes);
    static QString toText(const Team& fragment);
    // A team from pasted text, or nullopt with `error` set.
    static std::optional<Team> fromText(const QString& text, QString* error = nullptr);
};

} // namespace conclave::ui
