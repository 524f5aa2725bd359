#include "conclave/model/Team.h"

#include <algorithm>

namespace conclave {

std::optional<size_t> Team::indexOf(const NodeId& id) const
{
    const auto it = std::find_if(nodes.begin(), nodes.end(), [&](const Node& n) { return n.id == id; });
    if (it == nodes.end())
        return std::nullopt;
    return static_cast<size_t>(it - nodes.begin());
}

const Node* Team::findNode(const NodeId& id) const
{
    const auto index = indexOf(id);
    return index ? &nodes[*index] : nullptr;
}

Node* Team::findNode(const NodeId& id)
{
    const auto index = indexOf(id);
    return index ? &nodes[*index] : nullptr;
}

} // namespace conclave
