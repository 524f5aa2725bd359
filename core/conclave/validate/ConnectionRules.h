#pragma once

#include "conclave/model/Team.h"

#include <optional>
#include <string>
#include <vector>

namespace conclave {

// Whether a new edge may be added to a team, and if not, why, in the words the
// validator would use. An editor asks before it connects so that it never
// builds a graph the validator would reject for its shape.
class ConnectionRules {
public:
    // nullopt when an edge from -> to with `role` is allowed; otherwise the reason.
    static std::optional<std::string> refusal(const Team& team, const NodeId& from, const NodeId& to, EdgeRole role);

    // The ids on a shortest path from `from` to `to` over ordinary edges (both
    // ends included), or empty when there is none.
    static std::vector<NodeId> path(const Team& team, const NodeId& from, const NodeId& to);
};

} // namespace conclave
