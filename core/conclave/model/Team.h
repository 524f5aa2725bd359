#pragma once

#include "conclave/model/Backend.h"
#include "conclave/model/Node.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace conclave {

// The newest team format this build reads and writes. A team is written at
// the lowest version that holds its fields (formatVersionNeeded): 1; 2 for
// the adaptive fields (skip_when_agree, agree_fraction, mode adaptive,
// initial, a coordinator among a meeting's members); 3 for the fields of
// issue 28's wave (max_subtasks), for a recorded backend, for a
// coordinator's scorer and for an openai backend's models_file.
inline constexpr int64_t kTeamFormatVersion = 3;

// A team: a directed graph of nodes, plus where its model calls go.
//
// Plain data with value semantics; it promises nothing about validity (that is
// validate()'s job) so that an editor can hold a half-built team. Node and edge
// order is the order of the file and is kept, so saved files diff well.
// It never knows about files, Qt or a run.
struct Team;

// The lowest team format version that holds everything `team` uses (1 to 3).
int64_t formatVersionNeeded(const Team& team);

struct Team {
    std::string name;
    std::optional<std::string> description;
    std::map<BackendName, Backend> backends;
    std::optional<Defaults> defaults;
    std::optional<Budget> budget;
    std::vector<Node> nodes;
    std::vector<Edge> edges;
    nlohmann::json extra;  // unknown keys; null when none

    const Node* findNode(const NodeId& id) const;
    Node* findNode(const NodeId& id);
    std::optional<size_t> indexOf(const NodeId& id) const;

    friend bool operator==(const Team&, const Team&) = default;
};

} // namespace conclave
