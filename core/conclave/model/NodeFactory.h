#pragma once

#include "conclave/model/Team.h"

#include <string_view>

namespace conclave {

// New nodes and fresh ids. The studio's palette and its paste/template paths
// create nodes here, so a node added by hand starts from the same defaults
// whichever way it was made.
class NodeFactory {
public:
    // A node of `kind` with the settings a user most often wants, ready to be
    // connected: a router broadcasts, an expert asks the generalist model the
    // input, a coordinator runs a 3-round round robin, an aggregator votes.
    static Node make(NodeKind kind, NodeId id, std::optional<Position> pos = {});

    // An id not used in `team`: `base` itself when free, else base_2, base_3, ...
    // `base` is reduced to the characters ids allow; empty becomes "node".
    static NodeId uniqueId(const Team& team, std::string_view base);

    // The id grammar: letters, digits, '_', '-' and '.', at least one of them.
    static bool isIdChar(char c);
    static bool isValidId(std::string_view id);
    static constexpr std::string_view kIdCharacters = "letters, digits, '_', '-' and '.'";
};

} // namespace conclave
