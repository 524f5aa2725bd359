#pragma once

#include "conclave/model/Team.h"

#include <cstddef>
#include <utility>
#include <vector>

namespace conclave {

// A layered ("Sugiyama") layout, left to right by dependency: every node sits
// one layer right of its furthest predecessor, long edges pass through virtual
// nodes, layers are reordered by barycentres to reduce crossings (the best
// ordering seen is kept), and nodes are then pulled level with their
// neighbours. Pure geometry: it only ever produces positions.
class LayeredLayout {
public:
    struct Graph {
        size_t nodeCount = 0;
        std::vector<std::pair<size_t, size_t>> edges; // from, to (node indices); cycles are allowed
    };
    struct Options {
        double layerSpacing = 260; // x distance between layers
        double rowSpacing = 110;   // minimum y distance between nodes of a layer
        int sweeps = 12;           // barycentre passes (each down then up)
    };
    struct Result {
        std::vector<Position> positions; // per node
        std::vector<size_t> layers;      // per node
        size_t crossings = 0;            // edge crossings between adjacent layers, virtual nodes included
    };

    static Result compute(const Graph& graph, const Options& options);
    static Result compute(const Graph& graph) { return compute(graph, Options{}); }

    // The graph of a team: its nodes in team order, all its edges (member edges
    // too: a member is drawn right of its coordinator). Dangling edges are skipped.
    static Graph graphOf(const Team& team);
};

} // namespace conclave
