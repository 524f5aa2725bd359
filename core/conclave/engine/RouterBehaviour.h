#pragma once

#include "conclave/engine/CallPurpose.h"
#include "conclave/model/Node.h"

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace conclave {

// One way out of a router: an outgoing edge and what it leads to.
struct RouteCandidate {
    size_t edge = 0; // index in the team's edges
    NodeId target;
    std::optional<std::string> label; // the edge's route label (when)
    std::optional<std::string> model; // the target's model (defaults applied), when the target is an expert
};

// What a router decides from.
struct RouterInput {
    std::string text;                   // the router's input text
    std::vector<RouteCandidate> routes; // its outgoing edges, in the plan's order
    // The mixture-of-experts gate's score of each route's target for `text`
    // (Run::nodeGateScores), computed only when asked; empty when the run has no gate.
    std::function<std::vector<double>()> gateScores;
};

// What a router chose.
struct RouteDecision {
    std::vector<size_t> edges;         // the edges that fire (RouteCandidate::edge), in route order
    std::optional<std::string> answer; // the router's answer; unset: the chosen edges' labels, comma-joined
    std::string note;                  // one line for the router's span; empty: none
};

// The model call a behaviour that asks a model wants made (purpose: route).
struct RouteQuestion {
    std::string system;
    std::string prompt;
    CallInputs inputs;
};

// How a router of one strategy chooses its routes. One class per strategy;
// one object per router node, made from the node's settings when a team is
// prepared (session/ makes them, RunPlan carries them), shared by every run.
//
// Promises: immutable once made, so runs on any thread share it; never
// blocks, never calls back into the run, never touches a backend or a clock.
// A behaviour that does not ask a model decides in decide(), synchronously,
// from the input alone. One that asks a model (asksModel()) is asked for
// its question(); the run makes the call (timeouts, retries, fallback,
// budgets, spans as for any call) and, when the call is ok, answer() decides
// from the reply; when it fails no edge fires and the router ends as the call did.
// All three are called with the run's lock held.
class RouterBehaviour {
public:
    virtual ~RouterBehaviour() = default;

    virtual bool asksModel() const { return false; }
    // A behaviour that decides at once overrides this; the defaults choose nothing.
    virtual RouteDecision decide(const RouterInput& /*input*/) const { return {}; }
    // A behaviour that asks a model overrides these two, and asksModel().
    virtual RouteQuestion question(const RouterInput& /*input*/) const { return {}; }
    virtual RouteDecision answer(const RouterInput& /*input*/, std::string_view /*reply*/) const { return {}; }
};

// Makes the behaviour of a router node; null, with `error` set, when it cannot.
using RouterMaker = std::function<std::shared_ptr<const RouterBehaviour>(const Node& router, std::string& error)>;

} // namespace conclave
