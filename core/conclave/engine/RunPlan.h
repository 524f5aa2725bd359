#pragma once

#include "conclave/engine/ModelBackend.h"
#include "conclave/engine/RouterBehaviour.h"
#include "conclave/model/DefaultValues.h"
#include "conclave/model/Team.h"

#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace conclave {

// A model call's settings with the team defaults applied.
struct CallSettings {
    BackendName backend;
    std::string model;
    std::optional<std::string> fallbackModel;
    std::string system;
    std::optional<std::string> prompt;  // nullopt: the kind's default template
    ModelParams params;
    int64_t timeoutMs = defaults::kTimeoutMs;
    int retries = defaults::kRetries;
};

struct PlanNode {
    const Node* node = nullptr;
    std::vector<std::pair<size_t, size_t>> in;   // (from node, edge) over ordinary edges
    std::vector<std::pair<size_t, size_t>> out;  // (to node, edge)
    std::vector<size_t> members;                 // a coordinator's members, in edge order
    std::optional<size_t> coordinator;           // the coordinator a member belongs to
    std::optional<CallSettings> call;            // set when the node has a model to call
    // "KIND:K": the node is the K-th (from 0, in file order) of its kind whose
    // calls go to the same model; ModelRequest::draw starts with it.
    std::string drawRole;
    // A router's behaviour, made for it when the plan was made; null for other kinds.
    std::shared_ptr<const RouterBehaviour> router;
};

// An immutable, indexed snapshot of a valid team, taken when a run starts.
// The engine never sees the editable team.
class RunPlan {
public:
    // Fails with a message when the team cannot run (it should have been validated).
    // Each router's behaviour comes from `makeRouter` (session/ passes its
    // RouterBehaviourFactory); a null one with `error` set fails the plan.
    // Without a maker, from StandardRouters: a strategy whose behaviour is made
    // above the engine (learned) then has none — fine for a plan that is only
    // read; a run of it fails that router with a message saying so.
    static std::shared_ptr<const RunPlan> make(const Team& team, std::string& error);
    static std::shared_ptr<const RunPlan> make(const Team& team, std::string& error, const RouterMaker& makeRouter);

    const Team& team() const { return m_team; }
    const std::vector<PlanNode>& nodes() const { return m_nodes; }
    const PlanNode& at(size_t i) const { return m_nodes[i]; }
    size_t size() const { return m_nodes.size(); }
    size_t inputIndex() const { return m_input; }
    size_t outputIndex() const { return m_output; }
    std::optional<size_t> indexOf(const NodeId& id) const;
    // Engine timings (timeouts, deadlines, backoff, max_wall_ms) are scaled by the
    // time_scale of the team's default local backend, so a scaled-down run keeps its shape.
    double timeScale() const { return m_timeScale; }

private:
    Team m_team;
    std::vector<PlanNode> m_nodes;
    std::unordered_map<NodeId, size_t> m_index;
    size_t m_input = 0;
    size_t m_output = 0;
    double m_timeScale = 1;
};

} // namespace conclave
