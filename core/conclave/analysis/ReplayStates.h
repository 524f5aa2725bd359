#pragma once

#include "conclave/store/StoredRun.h"

#include <cstdint>
#include <map>
#include <unordered_map>
#include <vector>

namespace conclave {

// Each agent's state at one instant of a run.
using NodeStates = std::map<NodeId, Status>;

// What each node of a stored run was doing at any instant t, exactly as its
// node spans imply: running from a span's start until its end (a span that
// never ended runs to the end of the run), then the status of the span that
// ended last; queued before its first span. A node without any node span
// (skipped, or never started) takes the final status the run recorded for it
// from its finish (else from the run's end), and is queued until then.
// The nodes are the team's, then any other node a span names. Built once,
// then each instant costs a binary search per node.
class ReplayStates {
public:
    ReplayStates() = default;
    explicit ReplayStates(const StoredRun& run);

    NodeStates statesAt(int64_t atUs) const;
    // Queued for a node the run does not name.
    Status stateAt(const NodeId& node, int64_t atUs) const;

private:
    struct Interval {
        int64_t startUs = 0;
        int64_t endUs = 0;
        Status status = Status::Running;
        bool open = false; // never ended
    };
    struct Track {
        NodeId node;
        std::vector<Interval> spans;    // its node spans by start (ties: span order)
        std::vector<uint32_t> latest;   // among spans 0..k: the one that ends last (ties: the later)
        Status before = Status::Queued; // before its first span
        int64_t beforeFromUs = -1;      // when `before` applies (-1: never; stays queued)
    };

    static Status stateOf(const Track& track, int64_t atUs);

    std::vector<Track> m_tracks;
    std::unordered_map<NodeId, size_t> m_index;
};

} // namespace conclave
