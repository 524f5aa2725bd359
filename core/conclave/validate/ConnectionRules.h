#pragma once

#include "conclave/model/Team.h"
#include "conclave/model/TeamGraph.h"

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

    // Whether `member` may be one of `coordinator`'s members by their kinds and
    // mode: an expert, or a coordinator when `coordinator` is a cascade or an
    // adaptive meeting (a meeting as its last stage). nullopt when it may.
    static std::optional<std::string> memberKindRefusal(const Node& coordinator, const Node& member);

    // Whether a coordinator may be a meeting's member in `mode`: cascade and
    // adaptive ask each member once, so a member meeting is held at most once.
    static bool holdsMeetings(CoordinatorMode mode);

    // The problem with a circle of meetings (TeamGraph::memberCycle, not empty):
    // 'coordinator "a" reaches itself through its members: a -> b -> a'.
    static std::string memberCycleMessage(const TeamGraph& graph, const TeamGraph::Cycle& cycle);

    // The ids on a shortest path from `from` to `to` over ordinary edges (both
    // ends included), or empty when there is none.
    static std::vector<NodeId> path(const Team& team, const NodeId& from, const NodeId& to);

    // Whether the ordinary edges out of `from` need a route label (when): a
    // router chooses among its edges by label, except a broadcast (`all`) router,
    // which fires them all. A router without a strategy yet counts as choosing.
    static bool needsRouteLabel(const Node& from);

    // The route label an editor gives a new edge from router `from` to `to`: the
    // target's id, made unique among the labels already on `from`'s edges.
    static std::string newRouteLabel(const Team& team, const NodeId& from, const NodeId& to);
};

} // namespace conclave
