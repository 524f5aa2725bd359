#pragma once

#include "conclave/model/Node.h"

#include <cstddef>
#include <utility>
#include <vector>

namespace conclave::ui {

// Nodes and edges together with the places they hold (or will hold) in the
// team's lists, so that removing and re-inserting them restores the exact
// order of the file. Indices ascend.
struct TeamFragment {
    std::vector<std::pair<size_t, Node>> nodes;
    std::vector<std::pair<size_t, Edge>> edges;

    bool empty() const { return nodes.empty() && edges.empty(); }
};

} // namespace conclave::ui
