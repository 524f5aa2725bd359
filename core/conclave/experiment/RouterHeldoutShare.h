#pragma once

#include "conclave/model/Team.h"
#include "conclave/routing/RoutePolicy.h"
#include "conclave/session/EngineResources.h"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace conclave {

// How a `learned` router would split the held-out tasks its router file
// records (what the studio's inspector says under the router's fields): the
// file read and matched to the routes as a run's preparation does
// (session/LearnedRouterLoad), the held-out tasks reloaded from their sets,
// and each task's prompt routed by the router's own behaviour (its decide(),
// so RoutePolicy) over the router's edges in the run's order.
//
// A held-out task's set is what the training experiment named it: a bundled
// set's name, else a file; a relative file is looked for beside the router
// file, then as recorded (from the current folder).
//
// Promises: reads files only, never runs a model or touches a backend; never
// throws on bad input: every failure is an error text in the result.
class RouterHeldoutShare {
public:
    struct Route {
        NodeId target;
        std::string model; // the target's model, as the router file names it
        size_t tasks = 0;  // held-out tasks routed here
        double share = 0;  // tasks / Result::tasks
    };
    struct Result {
        std::string error;               // why nothing was predicted; empty when routes are filled
        std::filesystem::path file;      // the router file, resolved; empty while the router names none
        std::string method;              // the file's: "logistic" or "knn"; empty until it is read
        std::vector<std::string> models; // the file's, in its order
        std::optional<RoutePolicy::Kind> policy;
        double threshold = 0;
        size_t tasks = 0;          // held-out tasks routed
        std::vector<Route> routes; // the router's edges in order
        // The strong route, an index into routes: strong_weak's `strong`; for
        // another policy the dearest (calibrate-threshold's, priced on the first task).
        std::optional<size_t> strong;
    };

    // resources: the engine's (gate, local profiles); resourcesDir: where bundled task sets are;
    // teamFolder: the team file's, where a relative router_file is found (empty: the current folder).
    static Result compute(const Team& team, const NodeId& router, const EngineResources& resources,
                          const std::filesystem::path& resourcesDir, const std::filesystem::path& teamFolder);
};

} // namespace conclave
