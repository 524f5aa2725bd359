#pragma once

#include "conclave/model/StrongId.h"
#include "conclave/replay/CallRetiming.h"
#include "conclave/whatif/LatencyChange.h"

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace conclave {

// The speed-ups of a what-if, by node: every call a node makes (its
// attempts, rounds and subtasks) has its latency changed by the node's
// LatencyChange; the other nodes' calls keep their recorded times.
class SpeedChanges {
public:
    // "NODE=CHANGE" (the node id is everything before the last '='), once per node.
    bool add(std::string_view assignment, std::string& error);
    void set(const NodeId& node, const LatencyChange& change) { m_changes.insert_or_assign(node, change); }

    bool empty() const { return m_changes.empty(); }
    const std::map<NodeId, LatencyChange>& byNode() const { return m_changes; }
    // The change of the node that makes `request` (its salt's node id); unset: none.
    const LatencyChange* of(const ModelRequest& request) const;
    // For a replay (Engine::prepareReplay); unset when there is no change.
    CallRetiming retiming() const;

private:
    std::map<NodeId, LatencyChange> m_changes;
};

} // namespace conclave
